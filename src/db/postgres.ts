import pg from 'pg';
import { destination, pino } from 'pino';
import { KitError } from '../errors.js';
import { Availability, type AvailabilityLogger } from './availability.js';
import type { Database, QueryResult, Queryable } from './database.js';
import { MIGRATION_LOCK } from './migrate.js';
import { scrubQueryError } from './scrub.js';
import { connectionFailure, databaseUnavailable, isDatabaseUnavailable } from './unavailable.js';

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

/**
 * Runs a statement, turning a failure of the connection into `DATABASE_UNAVAILABLE` (told to `health`) and
 * any other failure into the driver's error without the query's data; a statement that ran tells `health`
 * the database answers.
 */
async function run<T>(health: Availability, statement: () => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await statement();
  } catch (error) {
    const reason = connectionFailure(error);
    if (reason === undefined) throw scrubQueryError(error);
    health.failed(reason);
    throw databaseUnavailable(reason);
  }
  health.answered();
  return result;
}

function wrap(client: pg.Pool | pg.PoolClient, health: Availability): Queryable {
  return {
    async query<Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> {
      const result = await run(health, () => client.query({ text: sql, values: params as unknown[], types }));
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
  /**
   * How long a query waits for a connection (a new one, or a free one of a full pool) before it fails with
   * `DATABASE_UNAVAILABLE`. Default {@link CONNECT_TIMEOUT_MS}.
   */
  connectTimeoutMs?: number;
  /**
   * How long a statement may run, in ms: the server cancels it after this (`statement_timeout`), and the pool gives
   * up waiting for its answer a second later, with `DATABASE_UNAVAILABLE` (an instance cut off from the server
   * without a reset answers its tills then, not after the kernel's TCP timeout). Default {@link QUERY_TIMEOUT_MS}.
   */
  queryTimeoutMs?: number;
  /** Where the pool writes one line per state change (unreachable, reachable again). Default JSON lines on stderr. */
  logger?: AvailabilityLogger;
}

/**
 * Default wait for a connection: a server that is down refuses at once, but one that is unreachable (a cut
 * network, a host gone) would hold every query, and the till's intent with it, for the kernel's TCP timeout.
 */
export const CONNECT_TIMEOUT_MS = 5_000;

/** Default {@link PostgresOptions.queryTimeoutMs}: far above any statement of the kit, short for a till. */
export const QUERY_TIMEOUT_MS = 5_000;

/** How much longer than the server's own limit the pool waits for an answer: the server's cancel comes first. */
const ANSWER_GRACE_MS = 1_000;

let stderrLogger: AvailabilityLogger | undefined;

/** The pool's log when its opener gave none: a database going away must be told somewhere. */
function defaultLogger(): AvailabilityLogger {
  stderrLogger ??= pino({ name: 'database' }, destination(2));
  return stderrLogger;
}

/**
 * A PostgreSQL server through a `pg` connection pool. Once open, it survives
 * the server going away: queries fail fast with `DATABASE_UNAVAILABLE` (never
 * a password or SQL in the message) while it does not answer, the pool
 * reconnects by itself when it is back, and `logger` gets one line per change.
 */
export async function openPostgres(options: PostgresOptions): Promise<Database> {
  const { url, schema, maxConnections = 10, connectTimeoutMs = CONNECT_TIMEOUT_MS } = options;
  const queryTimeoutMs = options.queryTimeoutMs ?? QUERY_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString: url,
    max: maxConnections,
    connectionTimeoutMillis: connectTimeoutMs,
    statement_timeout: queryTimeoutMs,
    query_timeout: queryTimeoutMs + ANSWER_GRACE_MS,
    keepAlive: true,
    ...(schema === undefined ? {} : { options: `-c search_path="${schema}"` }),
  });
  const health = new Availability({
    probe: () => pool.query('SELECT 1'),
    classify: connectionFailure,
    logger: options.logger ?? defaultLogger(),
    where: redactDatabaseUrl(url),
  });
  // An idle client's error (the server restarted or cut it) must not crash the process; the next query reconnects.
  pool.on('error', (error) => {
    if (connectionFailure(error) !== undefined) health.suspect();
  });
  try {
    if (schema !== undefined) await createSchema(pool, schema);
    else await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => {});
    throw unreachable(url, error);
  }
  const direct = wrap(pool, health);
  let closed: Promise<void> | undefined;
  return {
    kind: 'postgres',
    query: direct.query,
    reachable: () => !health.down,
    async exec(sql) {
      await run(health, () => pool.query(sql));
    },
    async transaction(fn) {
      const client = await run(health, () => pool.connect());
      let broken: unknown;
      try {
        await run(health, () => client.query('BEGIN'));
        const result = await fn(wrap(client, health));
        await run(health, () => client.query('COMMIT'));
        return result;
      } catch (error) {
        if (isDatabaseUnavailable(error)) broken = error;
        else await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        // A connection that failed is dropped, not handed to the next query.
        client.release(broken as Error | undefined);
      }
    },
    close() {
      health.close();
      closed ??= pool.end();
      return closed;
    },
  };
}

/**
 * `CREATE SCHEMA IF NOT EXISTS` under the migrations' lock: replicas started together would otherwise race on
 * `pg_namespace`'s unique index and one of them would fail to start.
 */
async function createSchema(pool: pg.Pool, schema: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await client.query('COMMIT');
    client.release();
  } catch (error) {
    client.release(error as Error);
    throw error;
  }
}

/** `url` without its password, for messages and logs: `postgres://user:***@host/db`. */
export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    for (const key of [...parsed.searchParams.keys()])
      if (/pass|secret|key/i.test(key)) parsed.searchParams.set(key, '***');
    return parsed.toString().replace('%2A%2A%2A', '***');
  } catch {
    return 'the DATABASE_URL given (not a valid URL)';
  }
}

/** The first query failed: the server is down, unknown, or refused us. Say where, never with the password. */
function unreachable(url: string, error: unknown): KitError {
  const e = error as { code?: string; message?: string };
  const why =
    typeof e.code === 'string' && /^[A-Z]/.test(e.code) && !/^[0-9A-Z]{5}$/.test(e.code)
      ? e.code
      : (e.message ?? String(error));
  return new KitError(
    'DATABASE_UNREACHABLE',
    `cannot reach the database at ${redactDatabaseUrl(url)} (${why.split('\n')[0]})`,
    { cause: error },
  );
}
