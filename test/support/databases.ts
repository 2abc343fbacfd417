import { randomBytes } from 'node:crypto';
import { openDatabase, type Database } from '../../src/db/index.js';
import { DATABASE_URL, haveService } from './services.js';

/** A database kind every persistence test runs against. */
export interface DatabaseCase {
  readonly name: 'pglite' | 'postgres';
  /** A fresh, empty database: PGlite in memory, or a schema of its own on the PostgreSQL server, dropped on close. */
  open(): Promise<Database>;
}

/** A unique schema name, so concurrent test files never see each other's rows. */
export function uniqueSchema(prefix = 't'): string {
  return `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

async function openOnServer(): Promise<Database> {
  const schema = uniqueSchema();
  const db = await openDatabase({ url: DATABASE_URL!, schema, maxConnections: 25 });
  const close = db.close.bind(db);
  return Object.assign(db, {
    async close() {
      await db.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
      await close();
    },
  });
}

/**
 * PGlite always; PostgreSQL when DATABASE_URL is set (one line says so when it
 * is not). Use with `describe.each(databaseCases('what'))`.
 */
export function databaseCases(what: string): DatabaseCase[] {
  const cases: DatabaseCase[] = [{ name: 'pglite', open: () => openDatabase() }];
  if (haveService('DATABASE_URL', DATABASE_URL, `${what} on PostgreSQL`))
    cases.push({ name: 'postgres', open: openOnServer });
  return cases;
}
