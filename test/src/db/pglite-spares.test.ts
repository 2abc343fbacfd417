import { beforeEach, describe, expect, it } from 'vitest';
import { openPglite } from '../../../src/db/pglite.js';
import { closeSpares, sparesReused } from '../../../src/db/pglite-spares.js';
import type { Database } from '../../../src/db/database.js';

/** Opens an in-memory database and says whether it was a spare (a closed one reset), not a new PGlite. */
async function openCounted(schema?: string): Promise<{ db: Database; spare: boolean }> {
  const before = sparesReused();
  const db = await openPglite(undefined, schema);
  return { db, spare: sparesReused() > before };
}

/** An open whose database is a spare: the one just closed, the only one (each test starts with none). */
async function reopenAfter(closing: Database, schema?: string): Promise<Database> {
  await closing.close();
  const { db, spare } = await openCounted(schema);
  expect(spare).toBe(true);
  return db;
}

const count = async (db: Database, table: string) =>
  (await db.query<{ n: number }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n;

describe('in-memory PGlite spares', () => {
  // Other files in this worker may have left spares: each test here starts with none.
  beforeEach(() => closeSpares());

  it('gives the next open none of the rows, schemas and session state the last one left', async () => {
    const first = (await openCounted()).db;
    await first.query(
      `INSERT INTO push_accounts (login, partner, password_hash, callback_secret, single_interval_ms,
        batch_interval_ms, simulate_delivery, created_at) VALUES ('shop', 'p', 'h', 's', 1, 1, false, now())`,
    );
    await first.exec('CREATE SCHEMA tenant; CREATE TABLE tenant.kept (id int); SET statement_timeout = 1234');
    await first.query('SELECT pg_advisory_lock(42)');

    const next = await reopenAfter(first);
    expect(await count(next, 'push_accounts')).toBe(0);
    expect((await next.query("SELECT to_regnamespace('tenant') AS s")).rows[0]).toEqual({ s: null });
    expect((await next.query('SHOW statement_timeout')).rows[0]).toEqual({ statement_timeout: '0' });
    expect((await next.query('SELECT pg_try_advisory_lock(42) AS got')).rows[0]).toEqual({ got: true });
    expect(await count(next, 'wpk_migrations')).toBeGreaterThan(0);
    await next.close();
  });

  it('gives a spare that was in a schema of its own back in public, the schema gone', async () => {
    const first = (await openCounted('tenant_a')).db;
    await first.exec('CREATE TABLE in_tenant (id int)');
    const next = await reopenAfter(first);
    expect((await next.query('SELECT current_schema() AS s')).rows[0]).toEqual({ s: 'public' });
    expect((await next.query("SELECT to_regclass('tenant_a.in_tenant') AS t")).rows[0]).toEqual({ t: null });
    await next.close();
  });

  it('closes rather than reuses a database whose tables were changed', async () => {
    const first = (await openCounted()).db;
    await first.exec('CREATE TABLE public.extra (id int); ALTER TABLE push_accounts ADD COLUMN note text');
    await first.close();
    // Whatever the next open gets, a new PGlite or another spare, it is not the changed one.
    const { db } = await openCounted();
    expect((await db.query("SELECT to_regclass('public.extra') AS t")).rows[0]).toEqual({ t: null });
    expect((await db.query("SELECT to_regclass('public.push_accounts') AS t")).rows[0]).toEqual({ t: 'push_accounts' });
    expect(
      (await db.query("SELECT count(*) AS n FROM information_schema.columns WHERE column_name = 'note'")).rows[0],
    ).toEqual({ n: 0 });
    await db.close();
  });

  it('refuses a query through a handle after its close, which can no longer reach the database', async () => {
    const first = (await openCounted()).db;
    await first.close();
    await expect(first.query('SELECT 1')).rejects.toThrow('PGlite is closed');
    await expect(first.exec('SELECT 1')).rejects.toThrow('PGlite is closed');
    await expect(first.transaction(async (tx) => tx.query('SELECT 1'))).rejects.toThrow('PGlite is closed');
  });
});
