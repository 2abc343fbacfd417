import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_URL, haveService } from '../../support/services.js';

const CHILD = fileURLToPath(new URL('../../support/migrate-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const REPLICAS = 3;
const ROUNDS = 3;

/** Children not yet exited, killed (by pid) after the tests should one hang. */
const running = new Set<ChildProcess>();
/** Schemas the rounds made, dropped at the end. */
const schemas: string[] = [];

interface Replica {
  ready: Promise<void>;
  /** Everything it printed, once it has exited, and its exit code. */
  done: Promise<{ code: number | null; output: string }>;
  go(): void;
}

function startReplica(url: string, schema: string): Replica {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, url, schema], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    if (output.startsWith('READY\n')) markReady();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const done = new Promise<{ code: number | null; output: string }>((resolve) => {
    child.once('exit', (code) => {
      running.delete(child);
      markReady();
      resolve({ code, output });
    });
  });
  return { ready, done, go: () => child.stdin!.write('go\n') };
}

describe.skipIf(!haveService('DATABASE_URL', DATABASE_URL, 'the replicas-start-together migration test'))(
  'migrate with replicas started together',
  () => {
    afterAll(async () => {
      for (const child of running) child.kill('SIGKILL');
      const client = new pg.Client({ connectionString: DATABASE_URL });
      await client.connect();
      for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    });

    it('brings every replica up, each migration applied once, when they start at once on an empty schema', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const schema = `wpk_replicas_${randomBytes(4).toString('hex')}`;
        schemas.push(schema);
        const replicas = Array.from({ length: REPLICAS }, () => startReplica(DATABASE_URL!, schema));
        await Promise.all(replicas.map((r) => r.ready));
        for (const replica of replicas) replica.go();
        const results = await Promise.all(replicas.map((r) => r.done));
        for (const result of results) expect(result, result.output).toMatchObject({ code: 0 });
        const client = new pg.Client({ connectionString: DATABASE_URL });
        await client.connect();
        const twice = await client.query(
          `SELECT module, id FROM "${schema}".wpk_migrations GROUP BY module, id HAVING count(*) > 1`,
        );
        await client.end();
        expect(twice.rows).toEqual([]);
      }
    }, 120_000);
  },
);
