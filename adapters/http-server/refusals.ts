import type { ZodError } from 'zod';
import { validationErrors } from '../../src/contracts/errors.js';
import { DATABASE_RETRY_AFTER_SECONDS, type LockoutError } from '../../src/errors.js';
import { HttpProblem } from './problem.js';

/**
 * A refusal to throw from a route of any of the kit's servers. Every one
 * answers the envelope `{ status, errors[] }`.
 *
 * @example
 * throw problem(404, 'NOT_FOUND', ['transactionId: no such transaction']);
 */
export function problem(
  httpStatus: number, status: string, errors: readonly string[], headers?: Record<string, string>,
): HttpProblem {
  return new HttpProblem(httpStatus, status, errors, headers);
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
  return new HttpProblem(400, 'REQUEST_DATA_INVALID',
    [`requestData: must be the JSON text of the request body${suffix}`]);
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
  return new HttpProblem(405, 'METHOD_NOT_ALLOWED', [`method: must be ${allowed.join(' or ')}`],
    { allow: allowed.join(', ') });
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

/** 500: anything not recognised; the answer says nothing more (a message may hold request data). */
export function internalError(): HttpProblem {
  return INTERNAL;
}

const INTERNAL = new HttpProblem(500, 'INTERNAL', ['Internal error']);
