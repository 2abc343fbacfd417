import pg from 'pg';
import { KitError } from '../errors.js';
import type { Database, QueryResult, Queryable } from './database.js';
import { scrubQueryError } from './scrub.js';

const INT8 = 20;
const NUMERIC = 1700;

/** Per-pool type parsers: BIGINT and COUNT as numbers, as PGlite gives them, without touching pg's globals. */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8) return (value: string) => Number(value);
    if (oid === NUMERIC) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

function wrap(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
      const result = await client.query({ text: sql, values: params as unknown[], types }).catch((error: unknown) => {
        throw scrubQueryError(error);
      });
      return { rows: result.rows as Row[], rowCount: result.command === 'SELECT' ? 0 : (result.rowCount ?? 0) };
    },
  };
}

/** Options of {@link openPostgres}. */
export interface PostgresOptions {
  /** `postgres://user@host:port/database` */
  url: string;
  /** Schema to create (if missing) and use; default the server's `search_path`. */
  schema?: string;
  /** Pool size; default 10. */
  maxConnections?: number;
}

/** A PostgreSQL server through a `pg` connection pool. */
export async function openPostgres({ url, schema, maxConnections = 10 }: PostgresOptions): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url, max: maxConnections,
    ...(schema === undefined ? {} : { options: `-c search_path="${schema}"` }),
  });
  // An idle client's error (the server restarted) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  try {
    if (schema !== undefined) await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    else await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => {});
    throw unreachable(url, error);
  }
  const direct = wrap(pool);
  let closed: Promise<void> | undefined;
  return {
    kind: 'postgres',
    query: direct.query,
    async exec(sql) {
      await pool.query(sql);
    },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close() {
      closed ??= pool.end();
      return closed;
    },
  };
}

/** `url` without its password, for messages and logs: `postgres://user:***@host/db`. */
export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    for (const key of [...parsed.searchParams.keys()]) if (/pass|secret|key/i.test(key)) parsed.searchParams.set(key, '***');
    return parsed.toString().replace('%2A%2A%2A', '***');
  } catch {
    return 'the DATABASE_URL given (not a valid URL)';
  }
}

/** The first query failed: the server is down, unknown, or refused us. Say where, never with the password. */
function unreachable(url: string, error: unknown): KitError {
  const e = error as { code?: string; message?: string };
  const why = typeof e.code === 'string' && /^[A-Z]/.test(e.code) && !/^[0-9A-Z]{5}$/.test(e.code) ? e.code : e.message ?? String(error);
  return new KitError('DATABASE_UNREACHABLE', `cannot reach the database at ${redactDatabaseUrl(url)} (${why.split('\n')[0]})`, { cause: error });
}
