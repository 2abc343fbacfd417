/** A row set from {@link Queryable.query}. */
export interface QueryResult<Row> {
  rows: Row[];
  /** Rows inserted, updated or deleted (0 for a SELECT). */
  rowCount: number;
}

/** Anything that runs one SQL statement with `$1`-style parameters. */
export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>>;
}

/**
 * The kit's persistence: PostgreSQL's dialect, in-process (PGlite) or a
 * PostgreSQL server (`pg`). BIGINT and COUNT come back as JavaScript numbers on
 * both (amounts in kopecks stay far below 2^53); TIMESTAMPTZ as `Date`.
 */
export interface Database extends Queryable {
  /** `pglite` (embedded) or `postgres` (a server). */
  readonly kind: 'pglite' | 'postgres';
  /** Runs several statements (no parameters), e.g. a migration. */
  exec(sql: string): Promise<void>;
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when
   * it throws (the error is rethrown). Statements must go through `tx`.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Whether the database answered last, as its pool's reconnect logic sees it (no query is made): false from a
   * failure of the connection until a query or the pool's probe answers. Absent: always reachable (in-process).
   */
  readonly reachable?: () => boolean;
  /** Closes connections; idempotent. */
  close(): Promise<void>;
}

/** PostgreSQL error codes the kit branches on (SQLSTATE). */
export const SQLSTATE = {
  uniqueViolation: '23505',
  serializationFailure: '40001',
  deadlockDetected: '40P01',
} as const;

/** The SQLSTATE of a database error, if it is one. */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}
