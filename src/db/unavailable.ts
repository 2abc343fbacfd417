import { KitError } from '../errors.js';

/** Socket errors of a connection that could not be made or was lost. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs that say the server is going or not there yet, beside class 08
 * (connection exception): admin_shutdown, crash_shutdown, cannot_connect_now
 * (starting up or shutting down), and too_many_connections (the server refuses
 * new sessions: a till's retry a moment later may get one).
 */
const SERVER_GONE = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * What `pg` and `pg-pool` throw, without a code, when a connection dies or
 * cannot be had in time. Matched at the start of the message: these are the
 * drivers' own words, never a query's.
 */
const DRIVER_MESSAGES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^Connection terminated due to connection timeout/, 'connect timeout'],
  [/^Connection terminated/, 'connection terminated'],
  [/^timeout exceeded when trying to connect/, 'connect timeout'],
  [/^Client has encountered a connection error/, 'connection lost'],
  [/^Connection ended unexpectedly/, 'connection terminated'],
  // The server did not answer within the pool's query_timeout: cut off (no reset came) or stalled.
  [/^Query read timeout/, 'query timeout'],
];

/**
 * Why `error` is a failure of the connection to the database rather than of
 * the statement (a short fixed word: `ECONNREFUSED`, `57P01`, `connect
 * timeout`...), or undefined when it is not one. The reason is built from
 * codes and the drivers' fixed messages only: it never holds SQL, parameters
 * or a password, so it may be logged and told.
 */
export function connectionFailure(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message, cause } = error as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof code === 'string') {
    if (SOCKET_CODES.has(code)) return code;
    if (/^08[0-9A-Z]{3}$/.test(code) || SERVER_GONE.has(code)) return code;
  }
  if (typeof message === 'string') {
    for (const [pattern, reason] of DRIVER_MESSAGES) if (pattern.test(message)) return reason;
  }
  // A connection error nested once (AggregateError of a dual-stack connect, or `cause`).
  const nested = (error as { errors?: unknown }).errors;
  if (Array.isArray(nested)) {
    for (const inner of nested) {
      const why = connectionFailure(inner);
      if (why !== undefined) return why;
    }
  }
  return cause !== undefined && cause !== error ? connectionFailure(cause) : undefined;
}

/** The error a query gets while the database does not answer: `DATABASE_UNAVAILABLE`, naming only `reason`. */
export function databaseUnavailable(reason: string): KitError {
  return new KitError('DATABASE_UNAVAILABLE', `the database is unavailable (${reason}): retry later`);
}

/** True for the error {@link databaseUnavailable} makes (on this thread or relayed from another). */
export function isDatabaseUnavailable(error: unknown): boolean {
  return error instanceof KitError && error.code === 'DATABASE_UNAVAILABLE';
}
