import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/db/index.js';
import { pgliteBase, readPgliteBase } from '../../../src/db/pglite-base.js';

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

  it('reads the snapshot that npm run build:pglite made (prepare runs it on install)', () => {
    const base = readPgliteBase([join(root, 'build')]);
    expect(base).toBeInstanceOf(Blob);
    expect(base!.size).toBeGreaterThan(1_000_000);
    expect(pgliteBase()?.size).toBe(base!.size);
  });
});

describe('openDatabase from the snapshot', () => {
  it('opens an empty, writable database in memory', async () => {
    const db = await openDatabase();
    try {
      expect((await db.query("SELECT count(*) AS n FROM pg_tables WHERE schemaname = 'public'")).rows).toEqual([{ n: 0 }]);
      await db.exec('CREATE TABLE t (v INT)');
      await db.query('INSERT INTO t VALUES ($1)', [7]);
      expect((await db.query('SELECT v FROM t')).rows).toEqual([{ v: 7 }]);
    } finally {
      await db.close();
    }
  }, 60_000);

  it('gives each in-memory database its own data', async () => {
    const [a, b] = await Promise.all([openDatabase(), openDatabase()]);
    try {
      await a.exec('CREATE TABLE only_in_a (v INT)');
      expect((await b.query("SELECT count(*) AS n FROM pg_tables WHERE tablename = 'only_in_a'")).rows).toEqual([{ n: 0 }]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }, 60_000);
});
