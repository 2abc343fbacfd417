import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/db/index.js';
import { KitError } from '../../../src/errors.js';
import { havePrivatePostgres, startPrivatePostgres, type PrivatePostgres } from '../../support/private-postgres.js';

/** A logger that keeps its lines. */
function recorder() {
  const lines: Array<{ level: 'warn' | 'info'; msg: string }> = [];
  const push = (level: 'warn' | 'info') => (_fields: unknown, msg: string) => {
    lines.push({ level, msg });
  };
  return { lines, logger: { warn: push('warn'), info: push('info') } };
}

const failure = (work: Promise<unknown>) =>
  work.then(
    () => undefined,
    (error: unknown) => error,
  );

const runs = havePrivatePostgres('the PostgreSQL outage tests of the database layer');

describe.runIf(runs)('a PostgreSQL pool whose server stops', () => {
  let pg: PrivatePostgres;
  let db: Database;
  const log = recorder();
  // A password in the URL (trust ignores it): it must never reach a message.
  const secret = 's3cret-pw';
  beforeAll(async () => {
    pg = await startPrivatePostgres();
    db = await openDatabase({ url: pg.url.replace('postgres@', `postgres:${secret}@`), logger: log.logger });
    await db.exec('CREATE TABLE kept (v INT)');
    await pg.stop();
  }, 180_000);
  afterAll(async () => {
    await db?.close();
    await pg?.destroy();
  });

  it('fails a query with DATABASE_UNAVAILABLE naming neither password nor SQL when the server is down', async () => {
    const error = await failure(db.query('SELECT v FROM kept WHERE v = $1', [42]));
    expect(error).toBeInstanceOf(KitError);
    expect((error as KitError).code).toBe('DATABASE_UNAVAILABLE');
    expect((error as Error).message).not.toMatch(/s3cret|SELECT|kept|42/);
  });

  it('fails a transaction with DATABASE_UNAVAILABLE when the server is down', async () => {
    const error = await failure(db.transaction((tx) => tx.query('INSERT INTO kept VALUES (1)')));
    expect((error as KitError).code).toBe('DATABASE_UNAVAILABLE');
    expect(((await failure(db.exec('SELECT 1'))) as KitError).code).toBe('DATABASE_UNAVAILABLE');
  });

  it('logs one warning however many queries fail while the server is down', async () => {
    await Promise.all(Array.from({ length: 20 }, () => failure(db.query('SELECT 1'))));
    expect(log.lines.filter((l) => l.level === 'warn')).toHaveLength(1);
    expect(log.lines.map((l) => l.msg).join('\n')).not.toContain(secret);
  });

  it('answers again, logging one line, once the server is back', async () => {
    await pg.start();
    // The pool probes by itself while the database is down: the line comes without a query.
    await expect.poll(() => log.lines.some((l) => l.msg === 'database reachable again')).toBe(true);
    expect((await db.query<{ n: number }>('SELECT count(*) AS n FROM kept')).rows).toEqual([{ n: 0 }]);
    expect(log.lines.map((l) => l.level)).toEqual(['warn', 'info']);
  });
});
