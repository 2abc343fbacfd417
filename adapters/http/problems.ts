import type { Logger } from 'pino';
import type { ZodError } from 'zod';
import { validationErrors } from '../../src/contracts/errors.js';
import { DATABASE_RETRY_AFTER_SECONDS, KitError, LockoutError, RequestDataError } from '../../src/errors.js';

/**
 * A refusal with its HTTP status and error envelope (`{ status, errors }`).
 * Thrown anywhere in a request's handling; `sendProblem` (reply.ts) writes it,
 * so every refusal has the same shape whichever path produced it.
 */
export class HttpProblem extends Error {
  constructor(
    readonly httpStatus: number,
    readonly status: string,
    readonly errors: readonly string[],
    /** Extra response headers, names in lower case as on the wire. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(`${httpStatus} ${status}`);
    this.name = 'HttpProblem';
  }
}

/** 401: no key, or a key of no till. The wording is the interface document's. */
export function unauthorized(): HttpProblem {
  return new HttpProblem(401, 'UNAUTHORIZED', ['Invalid authorization token'], { 'www-authenticate': 'Bearer' });
}

/** 400: the body (or a field of it) failed the route's schema. */
export function invalidBody(error: ZodError): HttpProblem {
  return new HttpProblem(400, 'BAD_REQUEST', validationErrors(error));
}

/** 400: the body is not JSON at all. */
export function bodyNotJson(): HttpProblem {
  return new HttpProblem(400, 'BAD_REQUEST', ['body: must be JSON']);
}

/** 400 with the kit's own code: the text to sign is not JSON. */
export function requestDataInvalid(detail?: string): HttpProblem {
  const suffix = detail === undefined ? '' : ` (${detail})`;
  return new HttpProblem(400, 'REQUEST_DATA_INVALID', [`requestData: must be the JSON text of the request body${suffix}`]);
}

/** 413: the body is over the configured limit. */
export function payloadTooLarge(limitBytes: number): HttpProblem {
  return new HttpProblem(413, 'PAYLOAD_TOO_LARGE', [`body: must be at most ${limitBytes} bytes`]);
}

/** 415: a body that is not declared as JSON. */
export function unsupportedMediaType(): HttpProblem {
  return new HttpProblem(415, 'UNSUPPORTED_MEDIA_TYPE', ['Content-Type: must be application/json']);
}

/** 404: no route has this path. */
export function notFound(): HttpProblem {
  return new HttpProblem(404, 'NOT_FOUND', ['No such route']);
}

/** 405: the path exists, but only under `allowed` methods (sent as `Allow`). */
export function methodNotAllowed(allowed: readonly string[]): HttpProblem {
  return new HttpProblem(405, 'METHOD_NOT_ALLOWED', [`method: must be ${allowed.join(' or ')}`], { allow: allowed.join(', ') });
}

/** 429: too many failed authentications; `Retry-After` says when to try again. */
export function tooManyRequests(error: LockoutError): HttpProblem {
  return new HttpProblem(429, 'TOO_MANY_REQUESTS', [`Too many failed authentications: retry after ${error.retryAfterSeconds} s`],
    { 'retry-after': String(error.retryAfterSeconds) });
}

/** 503: the database does not answer; the till retries the same intent after `Retry-After`. */
export function databaseUnavailable(): HttpProblem {
  return new HttpProblem(503, 'DATABASE_UNAVAILABLE', ['The database is unavailable: retry later'],
    { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) });
}

const INTERNAL = new HttpProblem(500, 'INTERNAL', ['Internal error']);

/**
 * The status a request is counted under when its client went away mid-body (nginx's "client closed request"); no answer
 * is sent.
 */
export const CLIENT_CLOSED_REQUEST = 499;

const CLIENT_CLOSED = new HttpProblem(CLIENT_CLOSED_REQUEST, 'CLIENT_CLOSED_REQUEST', ['The client closed the request']);

/**
 * True when `error` says the client went away before its body ended: the raw
 * routes' `ClientAborted`, or Node's own `aborted` (ECONNRESET) error, which a
 * body read through a web Request (the Hono routes: payments, the Pay webhook)
 * rejects with. Not the server's failure, and no one is left to answer.
 */
export function isClientAbort(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'ClientAborted' || ((error as NodeJS.ErrnoException).code === 'ECONNRESET' && error.message === 'aborted');
}

function classify(error: unknown): { problem: HttpProblem; log?: 'warn' | 'error' } {
  if (error instanceof HttpProblem) return { problem: error };
  if (error instanceof KitError) {
    switch (error.code) {
      case 'REQUEST_DATA_INVALID':
        // The offset (never the content) is safe to pass on and tells the till what to fix.
        return { problem: requestDataInvalid(error instanceof RequestDataError ? `invalid at byte ${error.offset}` : undefined) };
      case 'STORE_UNAVAILABLE':
        return {
          problem: new HttpProblem(503, 'STORE_UNAVAILABLE', ['The verification store is unavailable; the barcode was neither accepted nor refused']),
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
        return { problem: new HttpProblem(503, 'SERVICE_UNAVAILABLE', ['The server is shutting down']), log: 'warn' };
      default:
        break;
    }
  }
  return { problem: INTERNAL, log: 'error' };
}

/**
 * The refusal for anything thrown while answering a request: known failures
 * become their envelope; anything else is a 500 saying only "Internal error"
 * (messages may hold request data), with the error itself logged. 503s are
 * logged at `warn` (but `DATABASE_UNAVAILABLE`, logged once per outage where the database is),
 * 500s at `error`; a client gone mid-body is 499, logged at `info`
 * (the caller sends nothing for it). `path` must not carry the query string:
 * `?key=` holds a till key.
 */
export function problemFor(error: unknown, logger: Logger, request: { method: string; path: string }): HttpProblem {
  if (isClientAbort(error)) {
    // Logged at info and counted as 499, as the raw routes do: not a 500, no stack.
    logger.info({ method: request.method, path: request.path }, 'request aborted by the client');
    return CLIENT_CLOSED;
  }
  const { problem, log } = classify(error);
  if (log !== undefined) logger[log]({ err: error, method: request.method, path: request.path, status: problem.httpStatus }, 'http request failed');
  return problem;
}
