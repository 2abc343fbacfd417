import { PGlite } from '@electric-sql/pglite';
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

/**
 * PostgreSQL compiled to wasm, in this process: in memory, or kept in
 * `dataDir` across restarts. One connection; PGlite queues concurrent callers,
 * and a transaction holds the connection until it ends.
 */
export async function openPglite(dataDir?: string, schema?: string): Promise<Database> {
  const pg = await PGlite.create(dataDir === undefined ? undefined : { dataDir });
  if (schema !== undefined) await pg.exec(`CREATE SCHEMA IF NOT EXISTS "${schema}"; SET search_path TO "${schema}"`);
  const direct = wrap(pg);
  let closed: Promise<void> | undefined;
  return {
    kind: 'pglite',
    query: direct.query,
    async exec(sql) {
      await pg.exec(sql);
    },
    transaction(fn) {
      return pg.transaction((tx) => fn(wrap(tx)));
    },
    close() {
      closed ??= pg.close();
      return closed;
    },
  };
}
