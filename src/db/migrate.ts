import { checkBaked } from './baked-migrations.js';
import type { Database } from './database.js';

/**
 * The advisory lock key every migrating transaction holds (any module, any schema of the database): DDL of
 * different modules or schemas touches the same catalogues, so one key for all is the simple safe choice.
 */
export const MIGRATION_LOCK = 0x77706b6d; // 'wpkm'

/** One schema change. `id`s are applied in array order, each once, and never edited once released. */
export interface Migration {
  id: string;
  sql: string;
}

/**
 * Brings `module`'s tables up to date: applies the migrations not yet recorded
 * in `wpk_migrations`, each in its own transaction with its record. One advisory
 * lock on a fixed key ({@link MIGRATION_LOCK}), held by each of those transactions and by the one creating
 * `wpk_migrations`, serialises replicas started together on an empty database: one migrates, the others wait for
 * it and then find the work done (catalogue DDL racing unserialised fails on `pg_type`'s unique index).
 * A database already up to date (the usual start, and PGlite's snapshot, which
 * holds the kit's migrations) costs two look-ups and no transaction.
 *
 * @throws PgliteSnapshotStaleError when `db` came from a PGlite snapshot built with another version of one of them.
 * @example
 * await migrate(db, 'pay', [{ id: '001-transactions', sql: 'CREATE TABLE ...' }]);
 */
export async function migrate(db: Database, module: string, migrations: readonly Migration[]): Promise<string[]> {
  checkBaked(db, module, migrations);
  // A look-up rather than CREATE TABLE IF NOT EXISTS each start: DDL, even a no-op, costs a cold start far more.
  const present = await db.query<{ present: boolean }>("SELECT to_regclass('wpk_migrations') IS NOT NULL AS present");
  if (!present.rows[0]?.present) {
    await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await tx.query(`CREATE TABLE IF NOT EXISTS wpk_migrations (
    module TEXT NOT NULL, id TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now(), PRIMARY KEY (module, id))`);
    });
  }
  const recorded = await db.query<{ id: string }>('SELECT id FROM wpk_migrations WHERE module = $1', [module]);
  const known = new Set(recorded.rows.map((r) => r.id));
  const applied: string[] = [];
  for (const migration of migrations) {
    // Recorded ones are never undone, so skipping them needs no lock; the rest are re-checked under it.
    if (known.has(migration.id)) continue;
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const seen = await tx.query('SELECT 1 FROM wpk_migrations WHERE module = $1 AND id = $2', [module, migration.id]);
      if (seen.rows.length > 0) return false;
      for (const statement of splitStatements(migration.sql)) await tx.query(statement);
      await tx.query('INSERT INTO wpk_migrations (module, id) VALUES ($1, $2)', [module, migration.id]);
      return true;
    });
    if (done) applied.push(migration.id);
  }
  return applied;
}

/** Splits a migration on `;` at line ends; migrations hold no function bodies, so this is enough. */
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
