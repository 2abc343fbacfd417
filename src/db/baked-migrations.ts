import { createHash } from 'node:crypto';
import { KitError } from '../errors.js';
import type { Database } from './database.js';

/** A migration as far as this file cares (migrate.ts's `Migration`, which imports this file). */
interface Migration {
  readonly id: string;
  readonly sql: string;
}

/** Migration ids to the SHA-256 of their SQL, per module: what a snapshot was built with. */
export type BakedMigrations = Readonly<Record<string, Readonly<Record<string, string>>>>;

/**
 * The PGlite snapshot (`build/pglite-base.tar`) holds another version of a
 * migration than the code asks for: it was built before the migration changed.
 * Rebuilding it (`npm run build:pglite`) fixes it; released packages build it
 * from their own code, so this is a development-time error.
 */
export class PgliteSnapshotStaleError extends KitError {
  readonly module: string;
  readonly migration: string;

  constructor(module: string, migration: string) {
    super(
      'PGLITE_SNAPSHOT_STALE',
      `build/pglite-base.tar holds another version of migration ${module}/${migration}: run npm run build:pglite ` +
        `(and remove a --data folder made from it)`,
    );
    this.module = module;
    this.migration = migration;
  }
}

/** What a migration is, for telling a snapshot's copy from the code's: the SHA-256 of its SQL. */
export function migrationDigest(migration: Migration): string {
  return createHash('sha256').update(migration.sql).digest('hex');
}

const bakedBy = new WeakMap<Database, BakedMigrations>();

/** Records that `db` was loaded from a snapshot holding `migrations` (read by {@link checkBaked}). */
export function markBaked(db: Database, migrations: BakedMigrations): void {
  bakedBy.set(db, migrations);
}

/**
 * Before `migrate` trusts a database loaded from the snapshot: every migration
 * of `module` the snapshot holds must be one the code gives, unchanged.
 *
 * @throws PgliteSnapshotStaleError when one changed or is gone.
 */
export function checkBaked(db: Database, module: string, migrations: readonly Migration[]): void {
  const baked = bakedBy.get(db)?.[module];
  if (baked === undefined) return;
  const given = new Map(migrations.map((m) => [m.id, m]));
  for (const [id, digest] of Object.entries(baked)) {
    const migration = given.get(id);
    if (migration === undefined || migrationDigest(migration) !== digest)
      throw new PgliteSnapshotStaleError(module, id);
  }
}
