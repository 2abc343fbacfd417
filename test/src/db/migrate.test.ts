import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, type Database, type Migration } from '../../../src/db/index.js';
import { databaseCases } from '../../support/databases.js';

const migrations: Migration[] = [
  { id: '001-items', sql: 'CREATE TABLE items (id TEXT PRIMARY KEY);\nCREATE INDEX items_id ON items (id)' },
  { id: '002-price', sql: 'ALTER TABLE items ADD COLUMN price INTEGER NOT NULL DEFAULT 0' },
];

describe.each(databaseCases('migrations'))('migrate on $name', ({ open }) => {
  let db: Database;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(() => db.close());

  it('applies each migration once, in order, and nothing on a second start', async () => {
    expect(await migrate(db, 'shop', migrations)).toEqual(['001-items', '002-price']);
    expect(await migrate(db, 'shop', migrations)).toEqual([]);
    await db.query("INSERT INTO items (id, price) VALUES ('x', 5)");
  });

  it('applies only the new one when a release adds a migration', async () => {
    const next = [...migrations, { id: '003-name', sql: "ALTER TABLE items ADD COLUMN name TEXT NOT NULL DEFAULT ''" }];
    expect(await migrate(db, 'shop', next)).toEqual(['003-name']);
    expect((await db.query('SELECT id, price, name FROM items')).rows).toEqual([{ id: 'x', price: 5, name: '' }]);
  });

  it('keeps modules apart: the same ids in another module are applied for it', async () => {
    expect(await migrate(db, 'other', [{ id: '001-items', sql: 'CREATE TABLE other_items (id TEXT)' }])).toEqual([
      '001-items',
    ]);
  });

  it('applies nothing of a migration that fails, and records nothing for it', async () => {
    const broken = [{ id: '009-broken', sql: 'CREATE TABLE half (id TEXT);\nCREATE TABLE half (id TEXT)' }];
    await expect(migrate(db, 'broken', broken)).rejects.toThrow();
    expect(
      (await db.query("SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'half'")).rows,
    ).toEqual([{ n: 0 }]);
    expect((await db.query("SELECT count(*) AS n FROM wpk_migrations WHERE module = 'broken'")).rows).toEqual([
      { n: 0 },
    ]);
  });

  it('applies a migration once when several servers start at the same time', async () => {
    const racing = [{ id: '001-counter', sql: 'CREATE TABLE counter (n INTEGER)' }];
    const results = await Promise.all([
      migrate(db, 'race', racing),
      migrate(db, 'race', racing),
      migrate(db, 'race', racing),
    ]);
    expect(results.flat()).toEqual(['001-counter']);
  });
});
