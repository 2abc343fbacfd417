import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { markBaked, type BakedMigrations } from './baked-migrations.js';
import { lockDataDir } from './data-dir-lock.js';
import { BytesBlob } from './bytes-blob.js';
import { pgliteBase } from './pglite-base.js';
import { keepSpare, takeSpare } from './pglite-spares.js';
import { preloadPglite } from './pglite-preload.js';
import { pgliteStartParams } from './pglite-settings.js';
import type { Database, QueryResult, Queryable } from './database.js';
import { scrubQueryError } from './scrub.js';

function wrap(runner: Pick<PGlite, 'query'>): Queryable {
  return {
    async query<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
      const result = await runner.query<Row>(sql, params as unknown[]).catch((error: unknown) => {
        throw scrubQueryError(error);
      });
      return { rows: result.rows, rowCount: result.affectedRows ?? 0 };
    },
  };
}

/** An opened PGlite, with what the snapshot it came from (if it did) says of it. */
interface Created {
  pg: PGlite;
  baked?: BakedMigrations | undefined;
  shape?: string | null | undefined;
}

/**
 * A new database starts from the build-time snapshot when there is one (no
 * initdb, the kit's migrations applied); an existing folder resumes. Returns
 * the migrations the new database holds and its shape, if it came from the snapshot.
 */
async function create(dataDir: string | undefined): Promise<Created> {
  const fresh = dataDir === undefined || !existsSync(join(dataDir, 'PG_VERSION'));
  const base = fresh ? pgliteBase() : undefined;
  const preloaded = await preloadPglite();
  const pg = await PGlite.create({
    ...(dataDir === undefined ? {} : { dataDir }),
    ...(base === undefined ? {} : { loadDataDir: base.tar }),
    // A copy of the bundle each: PGlite keeps its files in that buffer.
    ...(preloaded === undefined
      ? {}
      : { pgliteWasmModule: preloaded.wasmModule, fsBundle: new BytesBlob(new Uint8Array(preloaded.fsBundle)) }),
    startParams: pgliteStartParams(),
  });
  return { pg, baked: base?.stamp.migrations, shape: base?.stamp.shape };
}

/** A new in-memory database: a spare from an earlier close when there is one, else one made now. */
async function createInMemory(): Promise<Created> {
  return (await takeSpare()) ?? (await create(undefined));
}

/**
 * PostgreSQL compiled to wasm, in this process: in memory, or kept in
 * `dataDir` across restarts, which this process then holds alone (a lock
 * file; see {@link lockDataDir}). One connection; PGlite queues concurrent
 * callers, and a transaction holds the connection until it ends. An in-memory
 * database from the snapshot is, once closed, kept a moment for the next open
 * in this process (reset to a fresh one's state first; see pglite-spares.ts).
 *
 * @throws DataDirInUseError when another live process holds `dataDir`.
 */
export async function openPglite(dataDir?: string, schema?: string): Promise<Database> {
  const release = dataDir === undefined ? () => {} : lockDataDir(dataDir);
  let pg: PGlite;
  let baked: BakedMigrations | undefined;
  let shape: string | null | undefined;
  try {
    ({ pg, baked, shape } = dataDir === undefined ? await createInMemory() : await create(dataDir));
    if (schema !== undefined) await pg.exec(`CREATE SCHEMA IF NOT EXISTS "${schema}"; SET search_path TO "${schema}"`);
  } catch (error) {
    release();
    throw error;
  }
  let closed: Promise<void> | undefined;
  // After close() the PGlite may serve the next open: this handle must not reach it.
  const open = <T>(run: () => Promise<T>): Promise<T> =>
    closed === undefined ? run() : Promise.reject(new Error('PGlite is closed'));
  const direct = wrap(pg);
  const db: Database = {
    kind: 'pglite',
    query: (sql, params) => open(() => direct.query(sql, params)),
    exec: (sql) => open(async () => void (await pg.exec(sql))),
    transaction: (fn) => open(() => pg.transaction((tx) => fn(wrap(tx)))),
    close() {
      const spare = dataDir === undefined && baked !== undefined ? { pg, baked, shape } : undefined;
      closed ??= spare === undefined ? pg.close().finally(release) : keepSpare(spare);
      return closed;
    },
  };
  // In a schema of its own the snapshot's tables (in public) are not the ones migrate() will see.
  if (baked !== undefined && schema === undefined) markBaked(db, baked);
  return db;
}
