import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import { openDatabase, SQLSTATE, sqlState, type Database } from '../../../src/db/index.js';
import { databaseCases } from '../../support/databases.js';

describe.each(databaseCases('the database layer'))('Database on $name', ({ open }) => {
  let db: Database;
  beforeAll(async () => {
    db = await open();
    await db.exec(
      'CREATE TABLE accounts (id TEXT PRIMARY KEY, balance BIGINT NOT NULL, at TIMESTAMPTZ NOT NULL DEFAULT now())',
    );
  });
  afterAll(() => db.close());

  it('returns BIGINT and COUNT as numbers and TIMESTAMPTZ as a Date, whichever engine', async () => {
    await db.query('INSERT INTO accounts (id, balance) VALUES ($1, $2)', ['big', 900_000_000_000]);
    const { rows } = await db.query<{ balance: number; at: Date; n: number }>(
      'SELECT balance, at, (SELECT count(*) FROM accounts) AS n FROM accounts WHERE id = $1',
      ['big'],
    );
    expect(rows[0]).toMatchObject({ balance: 900_000_000_000, n: 1 });
    expect(rows[0]!.at).toBeInstanceOf(Date);
  });

  it('counts the rows a statement changed and none for a SELECT', async () => {
    await db.query("INSERT INTO accounts (id, balance) VALUES ('a', 1), ('b', 2)");
    expect((await db.query("UPDATE accounts SET balance = balance + 1 WHERE id IN ('a', 'b')")).rowCount).toBe(2);
    expect((await db.query('SELECT * FROM accounts')).rowCount).toBe(0);
  });

  it('commits a transaction when its function resolves and rolls it back when it throws', async () => {
    await db.transaction(async (tx) => {
      await tx.query("INSERT INTO accounts (id, balance) VALUES ('kept', 5)");
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO accounts (id, balance) VALUES ('lost', 5)");
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    const { rows } = await db.query<{ id: string }>("SELECT id FROM accounts WHERE id IN ('kept', 'lost')");
    expect(rows.map((r) => r.id)).toEqual(['kept']);
  });

  it('gives the SQLSTATE of a unique violation, so callers branch on the code', async () => {
    const error = await db.query("INSERT INTO accounts (id, balance) VALUES ('kept', 1)").catch((e: unknown) => e);
    expect(sqlState(error)).toBe(SQLSTATE.uniqueViolation);
    expect(sqlState(new Error('plain'))).toBeUndefined();
  });
});

describe('openDatabase', () => {
  it('refuses bad options naming each field, never a value', async () => {
    const error = await openDatabase({ url: 'mysql://u:secret@h/db', schema: '1bad' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues).toEqual([
      'url: must be a postgres:// URL',
      'schema: must be 1 to 63 of [a-z0-9_], not starting with a digit',
    ]);
    expect((error as Error).message).not.toContain('secret');
  });

  it('keeps rows in a PGlite data folder across a close and a reopen', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wpk-db-'));
    try {
      const first = await openDatabase({ dataDir });
      await first.exec('CREATE TABLE kept (v INT)');
      await first.query('INSERT INTO kept VALUES ($1)', [42]);
      await first.close();
      const second = await openDatabase({ dataDir });
      expect((await second.query('SELECT v FROM kept')).rows).toEqual([{ v: 42 }]);
      await second.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
