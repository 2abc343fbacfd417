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
  /** Resolves once the kit is loaded (or the process has exited). */
  ready: Promise<void>;
  /** Releases it on `schema`; resolves with the line it answers (`MIGRATED` or an error), or what it printed. */
  migrate(schema: string): Promise<string>;
  /** Ends its input; resolves with its exit code and everything it printed. */
  end(): Promise<{ code: number | null; output: string }>;
}

function startReplica(url: string): Replica {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, url], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  const lines: string[] = [];
  let exited: string | undefined;
  let waiter: ((line: string) => void) | undefined;
  const answered = () => {
    if (waiter === undefined) return;
    const line = lines.shift() ?? exited;
    if (line === undefined) return;
    const wake = waiter;
    waiter = undefined;
    wake(line);
  };
  let pending = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    pending += chunk;
    const complete = pending.split('\n');
    pending = complete.pop()!;
    lines.push(...complete);
    answered();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const done = new Promise<{ code: number | null; output: string }>((resolve) => {
    child.once('exit', (code) => {
      running.delete(child);
      exited = `exited ${code}: ${output}`;
      answered();
      resolve({ code, output });
    });
  });
  const next = () =>
    new Promise<string>((resolve) => {
      waiter = resolve;
      answered();
    });
  const ready = next().then(() => {});
  return {
    ready,
    migrate: (schema) => {
      child.stdin!.write(`${schema}\n`);
      return next();
    },
    end: () => {
      child.stdin!.end();
      return done;
    },
  };
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
      // The same processes take every round: each round is a fresh schema and fresh connections, released at once.
      const replicas = Array.from({ length: REPLICAS }, () => startReplica(DATABASE_URL!));
      await Promise.all(replicas.map((r) => r.ready));
      for (let round = 0; round < ROUNDS; round++) {
        const schema = `wpk_replicas_${randomBytes(4).toString('hex')}`;
        schemas.push(schema);
        const answers = await Promise.all(replicas.map((r) => r.migrate(schema)));
        expect(answers).toEqual(replicas.map(() => 'MIGRATED'));
        const client = new pg.Client({ connectionString: DATABASE_URL });
        await client.connect();
        const twice = await client.query(
          `SELECT module, id FROM "${schema}".wpk_migrations GROUP BY module, id HAVING count(*) > 1`,
        );
        await client.end();
        expect(twice.rows).toEqual([]);
      }
      for (const result of await Promise.all(replicas.map((r) => r.end()))) {
        expect(result, result.output).toMatchObject({ code: 0 });
      }
    }, 120_000);
  },
);
