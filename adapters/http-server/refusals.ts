import type { ZodError } from 'zod';
import { validationErrors } from '../../src/contracts/validation-errors.js';
import { DATABASE_RETRY_AFTER_SECONDS, type KitErrorCode, type LockoutError } from '../../src/errors.js';
import { HttpProblem, type HttpProblemOptions } from './problem.js';

/**
 * A refusal to throw from a route of any of the kit's servers, answered with
 * the code's HTTP status from the table (src/errors/codes.ts). Every one
 * answers the envelope `{ status, errors[] }`.
 *
 * @example
 * throw problem('NOT_FOUND', ['transactionId: no such transaction']);
 */
export function problem(code: KitErrorCode, errors: readonly string[], options?: HttpProblemOptions): HttpProblem {
  return new HttpProblem(code, errors, options);
}

/** 401: no key, or a key of no till. The wording is the interface document's. */
export function unauthorized(): HttpProblem {
  return problem('UNAUTHORIZED', ['Invalid authorization token'], { headers: { 'www-authenticate': 'Bearer' } });
}

/** 400: the body (or a field of it) failed the route's schema. */
export function invalidBody(error: ZodError): HttpProblem {
  return problem('BAD_REQUEST', validationErrors(error));
}

/** 400: the body is not JSON at all. */
export function bodyNotJson(): HttpProblem {
  return problem('BAD_REQUEST', ['body: must be JSON']);
}

/** 400 with the kit's own code: the text to sign is not JSON. */
export function requestDataInvalid(detail?: string): HttpProblem {
  const suffix = detail === undefined ? '' : ` (${detail})`;
  return problem('REQUEST_DATA_INVALID', [`requestData: must be the JSON text of the request body${suffix}`]);
}

/** 413: the body is over the configured limit. */
export function payloadTooLarge(limitBytes: number): HttpProblem {
  return problem('PAYLOAD_TOO_LARGE', [`body: must be at most ${limitBytes} bytes`]);
}

/** 415: a body that is not declared as JSON. */
export function unsupportedMediaType(): HttpProblem {
  return problem('UNSUPPORTED_MEDIA_TYPE', ['Content-Type: must be application/json']);
}

/** 404: no route has this path. */
export function notFound(): HttpProblem {
  return problem('NOT_FOUND', ['No such route']);
}

/** 405: the path exists, but only under `allowed` methods (sent as `Allow`). */
export function methodNotAllowed(allowed: readonly string[]): HttpProblem {
  return problem('METHOD_NOT_ALLOWED', [`method: must be ${allowed.join(' or ')}`], {
    headers: { allow: allowed.join(', ') },
  });
}

/** 429: too many failed authentications; `Retry-After` says when to try again. */
export function tooManyRequests(error: LockoutError): HttpProblem {
  return problem('TOO_MANY_REQUESTS', [`Too many failed authentications: retry after ${error.retryAfterSeconds} s`], {
    headers: { 'retry-after': String(error.retryAfterSeconds) },
  });
}

/** 503: the database does not answer; the till retries the same intent after `Retry-After`. */
export function databaseUnavailable(): HttpProblem {
  return problem('DATABASE_UNAVAILABLE', ['The database is unavailable: retry later'], {
    headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
  });
}

/** 500: anything not recognised; the answer says nothing more (a message may hold request data). */
export function internalError(): HttpProblem {
  return INTERNAL;
}

const INTERNAL = problem('INTERNAL', ['Internal error']);
