import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import { sqlState } from '../../src/db/database.js';
import { KitError, LockoutError, RequestDataError } from '../../src/errors.js';
import { HttpProblem } from './problem.js';
import { databaseUnavailable, internalError, problem, requestDataInvalid, tooManyRequests } from './refusals.js';
import { httpStatusOf } from '../../src/errors/codes.js';

/**
 * The status a request is counted under when its client went away mid-body (nginx's "client closed request").
 * Every server of the kit treats such a request alike: logged at `info`, counted as 499, and answered with
 * nothing anyone reads (nobody is left to read it), rather than as a 400 the client never sees. 499 keeps
 * these apart from real client errors in `wpk_http_requests_total`.
 */
export const CLIENT_CLOSED_REQUEST = httpStatusOf('CLIENT_CLOSED_REQUEST');

const CLIENT_CLOSED = problem('CLIENT_CLOSED_REQUEST', ['The client closed the request']);

/**
 * True when `error` says the client went away before its body ended: the raw
 * routes' `ClientAborted`, or Node's own `aborted` (ECONNRESET) error, which a
 * body read through a web Request rejects with; or, given the Node request,
 * when that request ended before its body did (whatever the reader made of it).
 */
export function isClientAbort(error: unknown, incoming?: IncomingMessage): boolean {
  if (incoming !== undefined && !incoming.complete && (incoming.destroyed || incoming.readableAborted)) return true;
  if (!(error instanceof Error)) return false;
  if (error.name === 'ClientAborted') return true;
  return (error as NodeJS.ErrnoException).code === 'ECONNRESET' && error.message === 'aborted';
}

/**
 * The last-resort refusal of input the database would not take (SQLSTATE
 * class 22, data exception: a NUL, bytes that are not UTF-8, a value too long
 * or out of range), which the contract should have caught: 400, not 500.
 * Recognised by the error's code, never its message.
 */
export function databaseRefusal(error: unknown): HttpProblem | undefined {
  const code = sqlState(error);
  if (code === undefined || !code.startsWith('22')) return undefined;
  return problem('BAD_REQUEST', [
    'body: a value was refused as invalid data; check text fields for control characters and lengths',
  ]);
}

function classify(error: unknown): { problem: HttpProblem; log?: 'warn' | 'error'; message?: string } {
  if (error instanceof HttpProblem) return { problem: error };
  const refused = databaseRefusal(error);
  if (refused !== undefined) return { problem: refused, log: 'warn', message: 'input refused by the database' };
  if (error instanceof KitError) {
    switch (error.code) {
      case 'REQUEST_DATA_INVALID':
        // The offset (never the content) is safe to pass on and tells the till what to fix.
        return {
          problem: requestDataInvalid(
            error instanceof RequestDataError ? `invalid at byte ${error.offset}` : undefined,
          ),
        };
      case 'STORE_UNAVAILABLE':
        return {
          problem: problem('STORE_UNAVAILABLE', [
            'The verification store is unavailable; the barcode was neither accepted nor refused',
          ]),
          log: 'warn',
        };
      case 'TOO_MANY_REQUESTS':
        // Not logged per request: the lockout was logged once when it began.
        if (error instanceof LockoutError) return { problem: tooManyRequests(error) };
        break;
      case 'DATABASE_UNAVAILABLE':
        // Not logged per request: the database layer logs once when it stops answering and once when it is back.
        return { problem: databaseUnavailable() };
      case 'VERIFIER_CLOSED':
        // Only while the server drains: the till should retry, not report a fault.
        return { problem: problem('VERIFIER_CLOSED', ['The server is shutting down']), log: 'warn' };
      default:
        break;
    }
    // Any other kit error: its code and status, as the bridge answers it (its message carries no secrets).
    const own = 'errors' in error && Array.isArray(error.errors) ? (error.errors as string[]) : [];
    const refusal = problem(error.code, own.length > 0 ? own : [error.message]);
    const log = refusal.httpStatus === 503 ? 'warn' : refusal.httpStatus >= 500 ? 'error' : undefined;
    return { problem: refusal, log };
  }
  return { problem: internalError(), log: 'error' };
}

/** The request a failure is logged with: never its URL (`?key=` holds a till key), never its body. */
export interface FailedRequest {
  method: string;
  path: string;
  /** The request's id, when the log line should carry it. */
  reqId?: string;
  /** The Node request, when served over a socket: tells a client gone mid-body from a failure. */
  incoming?: IncomingMessage;
  /** The request is known to be abandoned by its client (its web Request's signal aborted). */
  aborted?: boolean;
}

/**
 * The refusal for anything thrown while answering a request, on every server
 * of the kit: known failures become their envelope; anything else is a 500
 * saying only "Internal error" (messages may hold request data), with the
 * error itself logged. 503s are logged at `warn` (but `DATABASE_UNAVAILABLE`,
 * logged once per outage where the database is), 500s at `error`; a client
 * gone mid-body is 499, logged at `info` (see {@link CLIENT_CLOSED_REQUEST}).
 */
export function problemFor(error: unknown, logger: Logger, request: FailedRequest): HttpProblem {
  const { incoming, aborted, ...logged } = request;
  if (aborted === true || isClientAbort(error, incoming)) {
    logger.info(logged, 'request aborted by the client');
    return CLIENT_CLOSED;
  }
  const { problem, log, message } = classify(error);
  if (log === undefined) return problem;
  logger[log]({ err: error, ...logged, status: problem.httpStatus }, message ?? 'http request failed');
  return problem;
}
