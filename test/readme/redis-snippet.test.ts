import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { drawBarcode } from '../../adapters/node/primitives.js';
import { demoConfig } from '../../src/demo.js';

const root = join(import.meta.dirname, '..', '..');
const redisUrl = process.env.REDIS_URL;

/** The README's Redis example: the ```ts block that makes a RedisStore. */
function redisSnippet(): string {
  const blocks = readFileSync(join(root, 'README.md'), 'utf8')
    .split('```ts\n')
    .slice(1)
    .map((block) => block.split('\n```')[0]!);
  const snippet = blocks.find((block) => block.includes('new RedisStore('));
  if (snippet === undefined) throw new Error('README.md: no ```ts block makes a RedisStore');
  return snippet;
}

if (!redisUrl) console.log('README Redis example: skipped (set REDIS_URL to run it against a Redis server)');

describe.skipIf(!redisUrl)('README Redis example', () => {
  it('verifies a barcode through Redis, closes what it opened and exits by itself', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wpk-readme-redis-'));
    try {
      const kit = pathToFileURL(join(root, 'dist', 'src', 'entries', 'index.js')).href;
      const scanned = drawBarcode({
        ...demoConfig.verifier,
        cardNumber: `4000${Date.now() % 1e12}`.padEnd(16, '0'),
        cardSession: 'AB12CD34',
      });
      // The README leaves config and scanned to the reader; the package import is the built one.
      const program = [
        `const config = ${JSON.stringify(demoConfig.verifier)};`,
        `const scanned = ${JSON.stringify(scanned)};`,
        // Each package import becomes the built entry point of its subpath (package.json `exports`).
        redisSnippet().replace(/from 'wallet-partner-kit(\/[a-z]+)?'/g, (_, sub: string | undefined) => {
          const entry =
            sub === undefined ? kit : pathToFileURL(join(root, 'dist', 'src', 'entries', `${sub.slice(1)}.js`)).href;
          return `from ${JSON.stringify(entry)}`;
        }),
        'console.log(JSON.stringify({ resultCode: result.resultCode }));',
      ].join('\n');
      writeFileSync(join(dir, 'example.mjs'), program);
      const child = spawn(process.execPath, [join(dir, 'example.mjs')], {
        env: { ...process.env, REDIS_URL: redisUrl },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        out += chunk.toString();
      });
      // Exits on its own: the test's timeout is what catches a handle left open.
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(out).toContain('"resultCode":"CARDSESSION_AVAILABLE"');
      expect(code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
