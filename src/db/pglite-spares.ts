import type { PGlite } from '@electric-sql/pglite';
import type { BakedMigrations } from './baked-migrations.js';

/**
 * Closed in-memory databases, kept a moment for the next open in this process. A process that opens many in turn (a
 * test suite starting a sandbox per test, the sandbox started and stopped by a merchant's own tests) then pays
 * PGlite's start-up (its file system built, PostgreSQL booted: 0.3-0.6 s of CPU each) once, and a reset (a few tens
 * of ms) after. A spare is reset when it is taken, not when it is given back, so closing costs nothing; only one
 * whose shape after the reset is exactly the snapshot's (schemas, tables and their columns, functions, triggers,
 * sequences, the migrations recorded, no rows: {@link databaseShape}, recorded in the snapshot's stamp when it is
 * built) is reused, any other is closed.
 */

/** How long a spare waits for the next open before it is closed for real. */
const SPARE_MS = 5_000;
/** At most this many spares at a time: each holds PGlite's memory. */
const MAX_SPARES = 2;

/** A database born from the snapshot, with the migrations it holds and its shape when fresh (from the stamp). */
export interface SnapshotDatabase {
  readonly pg: PGlite;
  readonly baked: BakedMigrations;
  readonly shape: string | null | undefined;
}

interface Spare extends SnapshotDatabase {
  readonly timer: NodeJS.Timeout;
}

const spares: Spare[] = [];
let reused = 0;

/** Back to a fresh snapshot's state: the session's state, the schemas a caller made, every row but the migrations'. */
const RESET = [
  // Settings (search_path), advisory locks, LISTENs, prepared statements, temporary tables.
  'DISCARD ALL',
  // Replica role: the rows go without their triggers (an append-only table refuses a DELETE) or foreign keys' order.
  `SET session_replication_role = replica;
   DO $$ DECLARE r record; BEGIN
     FOR r IN SELECT nspname FROM pg_namespace
              WHERE nspname NOT IN ('public', 'information_schema') AND nspname NOT LIKE 'pg\\_%' LOOP
       EXECUTE format('DROP SCHEMA %I CASCADE', r.nspname);
     END LOOP;
     FOR r IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'wpk_migrations' LOOP
       EXECUTE format('DELETE FROM public.%I', r.tablename);
     END LOOP;
     FOR r IN SELECT sequencename FROM pg_sequences WHERE schemaname = 'public' LOOP
       EXECUTE format('ALTER SEQUENCE public.%I RESTART', r.sequencename);
     END LOOP;
   END $$;
   RESET session_replication_role`,
];

/** What a reset cannot undo, as one text: two databases with the same shape differ in rows only. */
const SHAPE = `SELECT md5(string_agg(item, E'\\n' ORDER BY item)) AS shape FROM (
  SELECT 'schema ' || nspname AS item FROM pg_namespace
  UNION ALL
  SELECT 'relation ' || c.relname || ' ' || c.relkind::text || ' ' || coalesce((
    SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod), ', ' ORDER BY a.attnum)
    FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), '')
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'
  UNION ALL
  SELECT 'function ' || p.oid::regprocedure::text FROM pg_proc p
  JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'
  UNION ALL
  SELECT 'trigger ' || tgrelid::regclass::text || ' ' || tgname || ' ' || tgenabled::text
  FROM pg_trigger WHERE NOT tgisinternal
  UNION ALL
  SELECT 'sequence ' || sequencename || ' ' || coalesce(last_value::text, '-') FROM pg_sequences
  UNION ALL
  SELECT 'migration ' || module || ' ' || id FROM public.wpk_migrations
) items`;

/** Closes a spare no one holds: a failure to close has no one to tell. */
function closeQuietly(pg: PGlite): Promise<void> {
  return pg.close().catch(() => {});
}

async function shapeOf(pg: PGlite): Promise<string> {
  return (await pg.query<{ shape: string }>(SHAPE)).rows[0]!.shape;
}

/**
 * A fresh database's shape, which a reset spare must have again to be reused; null when a table other than the
 * migrations' holds rows (a reset would delete them). `npm run build:pglite` records it in the snapshot's stamp.
 */
export async function databaseShape(pg: PGlite): Promise<string | null> {
  const tables = await pg.query<{ name: string }>(
    `SELECT format('public.%I', tablename) AS name FROM pg_tables
     WHERE schemaname = 'public' AND tablename <> 'wpk_migrations'`,
  );
  const sum = ['0', ...tables.rows.map(({ name }) => `(SELECT count(*) FROM ${name})`)].join(' + ');
  const rows = (await pg.query<{ rows: number }>(`SELECT ${sum} AS rows`)).rows[0]!.rows;
  return rows === 0 ? await shapeOf(pg) : null;
}

/** Keeps a closed in-memory snapshot database for the next {@link takeSpare}, or closes it when none is wanted. */
export function keepSpare(database: SnapshotDatabase): Promise<void> {
  if (typeof database.shape !== 'string' || spares.length >= MAX_SPARES) return database.pg.close();
  const timer = setTimeout(() => {
    const at = spares.findIndex((spare) => spare.timer === timer);
    if (at >= 0) void closeQuietly(spares.splice(at, 1)[0]!.pg);
  }, SPARE_MS).unref();
  spares.push({ ...database, timer });
  return Promise.resolve();
}

/** A kept database reset to a fresh snapshot's state, or undefined when there is none (or none resets cleanly). */
export async function takeSpare(): Promise<SnapshotDatabase | undefined> {
  for (let spare = spares.pop(); spare !== undefined; spare = spares.pop()) {
    clearTimeout(spare.timer);
    const { pg, baked, shape } = spare;
    try {
      for (const statement of RESET) await pg.exec(statement);
      if ((await shapeOf(pg)) === shape) {
        reused++;
        return { pg, baked, shape };
      }
    } catch {
      // Left in a state a reset cannot undo (an open transaction, a changed table): closed below, never reused.
    }
    await closeQuietly(pg);
  }
  return undefined;
}

/** Closes every spare now (they close by themselves {@link SPARE_MS} after their close otherwise). */
export async function closeSpares(): Promise<void> {
  const closing = spares.splice(0).map(({ pg, timer }) => {
    clearTimeout(timer);
    return closeQuietly(pg);
  });
  await Promise.all(closing);
}

/** How many opens in this process took a spare (for tests). */
export function sparesReused(): number {
  return reused;
}
