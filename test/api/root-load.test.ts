import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);

/** The npm packages a fresh Node process loads when it imports `module` (a built file) and nothing else. */
async function packagesLoadedBy(module: string): Promise<string[]> {
  const { stdout } = await run(process.execPath, [join(import.meta.dirname, 'record-loads.mjs'), join(root, module)]);
  return JSON.parse(stdout) as string[];
}

/** What embedding the verifier must not pull in: HTTP framework, Redis client, database drivers, logger. */
const HEAVY = ['hono', '@hono/zod-openapi', '@hono/node-server', 'ioredis', 'pg', '@electric-sql/pglite', 'pino'];

describe('package root', () => {
  it('loads no HTTP framework, Redis client, database or logger when imported', async () => {
    const loaded = await packagesLoadedBy('dist/src/entries/index.js');
    expect(loaded.filter((name) => HEAVY.includes(name))).toEqual([]);
    // The recorder sees packages at all: the root does load its zod and the wasm loader.
    expect(loaded).toContain('zod');
  });

  it('loads the Redis client from wallet-partner-kit/redis (the recorder sees what a subpath loads)', async () => {
    expect(await packagesLoadedBy('dist/src/entries/redis.js')).toContain('ioredis');
  });
});
