import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Database } from '../../../src/db/index.js';
import { checkBaked, markBaked, migrationDigest, PgliteSnapshotStaleError } from '../../../src/db/baked-migrations.js';
import { pgliteBase, readPgliteBase, type PgliteBaseStamp } from '../../../src/db/pglite-base.js';
import { loyaltyMigrations } from '../../../src/loyalty-program/migrations.js';
import { outboxMigrations } from '../../../src/sandbox/outbox/migrations.js';
import { SANDBOX_MODULES } from '../../../src/sandbox/modules.js';

const root = join(import.meta.dirname, '..', '..', '..');

describe('readPgliteBase', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wpk-base-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('finds nothing in a folder without a snapshot', () => {
    expect(readPgliteBase([dir])).toBeUndefined();
  });

  it('refuses a snapshot that another PGlite version made', () => {
    writeFileSync(join(dir, 'pglite-base.tar'), 'tar');
    writeFileSync(join(dir, 'pglite-base.json'), JSON.stringify({ pglite: '0.0.1' }));
    expect(readPgliteBase([dir])).toBeUndefined();
  });

  it('refuses a snapshot without its stamp', () => {
    writeFileSync(join(dir, 'pglite-base.tar'), 'tar');
    expect(readPgliteBase([dir])).toBeUndefined();
  });

  it('reads the snapshot that npm run build:pglite made (prepare runs it on install), without copying it', async () => {
    const base = readPgliteBase([join(root, 'build')]);
    expect(base?.tar).toBeInstanceOf(Blob);
    const bytes = readFileSync(join(root, 'build', 'pglite-base.tar'));
    expect(base!.tar.size).toBe(bytes.length);
    expect(Buffer.from(await base!.tar.arrayBuffer()).equals(bytes)).toBe(true);
    expect(pgliteBase()?.tar.size).toBe(bytes.length);
  });

  it('stamps the snapshot with the migrations it holds, as the code has them now', () => {
    const stamp = readPgliteBase([join(root, 'build')])!.stamp;
    const expected: Array<[string, readonly { id: string; sql: string }[]]> = [
      ['outbox', outboxMigrations],
      ...SANDBOX_MODULES.map((m) => [m.name, m.migrations] as [string, typeof m.migrations]),
      ['loyalty', loyaltyMigrations],
    ];
    for (const [module, migrations] of expected) {
      expect(stamp.migrations?.[module], module).toEqual(
        Object.fromEntries(migrations.map((m) => [m.id, migrationDigest(m)])),
      );
    }
  });
});

describe('openDatabase from the snapshot', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase();
  }, 60_000);
  afterAll(() => db.close());

  it("opens a writable database in memory that already holds the kit's migrations", async () => {
    expect(
      (await db.query<{ n: number }>("SELECT count(*) AS n FROM wpk_migrations WHERE module = 'loyalty'")).rows[0]!.n,
    ).toBe(loyaltyMigrations.length);
    expect(await migrate(db, 'loyalty', loyaltyMigrations)).toEqual([]);
    expect(await migrate(db, 'outbox', outboxMigrations)).toEqual([]);
    await db.exec('CREATE TABLE t (v INT)');
    await db.query('INSERT INTO t VALUES ($1)', [7]);
    expect((await db.query('SELECT v FROM t')).rows).toEqual([{ v: 7 }]);
  });

  it("runs with the kit's small shared memory (a start zeroes all of it)", async () => {
    expect((await db.query('SHOW shared_buffers')).rows).toEqual([{ shared_buffers: '8MB' }]);
  });

  it('gives each in-memory database its own data', async () => {
    const other = await openDatabase();
    try {
      await db.exec('CREATE TABLE only_in_a (v INT)');
      expect((await other.query("SELECT count(*) AS n FROM pg_tables WHERE tablename = 'only_in_a'")).rows).toEqual([
        { n: 0 },
      ]);
    } finally {
      await other.close();
    }
  }, 60_000);
});

describe('checkBaked', () => {
  const migrations = [
    { id: '001-a', sql: 'CREATE TABLE a (id INT)' },
    { id: '002-b', sql: 'CREATE TABLE b (id INT)' },
  ];
  const stamp: NonNullable<PgliteBaseStamp['migrations']> = { shop: { '001-a': migrationDigest(migrations[0]!) } };
  const db = { kind: 'pglite' } as Database;
  markBaked(db, stamp);

  it('accepts a module whose baked migrations the code still has, unchanged, and new ones after them', () => {
    expect(() => checkBaked(db, 'shop', migrations)).not.toThrow();
    expect(() => checkBaked(db, 'other', [])).not.toThrow();
  });

  it('refuses a snapshot holding another version of a migration, naming it and the fix', () => {
    const changed = [{ id: '001-a', sql: 'CREATE TABLE a (id BIGINT)' }];
    expect(() => checkBaked(db, 'shop', changed)).toThrow(PgliteSnapshotStaleError);
    expect(() => checkBaked(db, 'shop', changed)).toThrow(/migration shop\/001-a: run npm run build:pglite/);
    expect(() => checkBaked(db, 'shop', [])).toThrow(
      expect.objectContaining({ code: 'PGLITE_SNAPSHOT_STALE', module: 'shop', migration: '001-a' }),
    );
  });

  it('does not apply to a database that did not come from the snapshot', () => {
    expect(() => checkBaked({ kind: 'pglite' } as Database, 'shop', [])).not.toThrow();
  });
});
