import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Logger } from 'pino';
import type { ZodError } from 'zod';
import { errorEnvelope, validationErrors } from '../../src/contracts/errors.js';
import { KitError, RequestDataError } from '../../src/errors.js';

/**
 * A refusal with its HTTP status and error envelope (`{ status, errors }`).
 * Thrown or returned anywhere in the app; the error handler turns it into
 * the response, so every refusal has the same shape.
 */
export class HttpProblem extends Error {
  constructor(
    readonly httpStatus: ContentfulStatusCode,
    readonly status: string,
    readonly errors: readonly string[],
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(`${httpStatus} ${status}`);
    this.name = 'HttpProblem';
  }
}

/** The envelope response for a problem. */
export function problemResponse(c: Context, problem: HttpProblem): Response {
  return c.json(errorEnvelope(problem.status, problem.errors), problem.httpStatus, { ...problem.headers });
}

/** 401: no key, or a key of no till. The wording is the interface document's. */
export function unauthorized(): HttpProblem {
  return new HttpProblem(401, 'UNAUTHORIZED', ['Invalid authorization token'], { 'WWW-Authenticate': 'Bearer' });
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

const INTERNAL = new HttpProblem(500, 'INTERNAL', ['Internal error']);

/** The zod-openapi `defaultHook`: schema failures get the envelope instead of zod's own JSON. */
export function validationHook(result: { success: true } | { success: false; error: ZodError }, c: Context): Response | undefined {
  return result.success ? undefined : problemResponse(c, invalidBody(result.error));
}

function classify(error: unknown): { problem: HttpProblem; log?: 'warn' | 'error' } {
  if (error instanceof HttpProblem) return { problem: error };
  if (error instanceof HTTPException) {
    // Hono raises these from its validators: 400 only when the JSON body does not parse.
    if (error.status === 400) return { problem: bodyNotJson() };
    if (error.status === 415) return { problem: unsupportedMediaType() };
  }
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
 * The app's `onError`: known failures become their envelope; anything else is
 * a 500 saying only "Internal error" (messages may hold request data), with
 * the error itself logged. Logs carry the path, never the URL: `?key=` holds a till key.
 */
export function errorHandler(logger: Logger): ErrorHandler {
  return (error, c) => {
    const { problem, log } = classify(error);
    if (log !== undefined) {
      logger[log]({ err: error, method: c.req.method, path: c.req.path, status: problem.httpStatus }, 'http request failed');
    }
    return problemResponse(c, problem);
  };
}

/**
 * The app's `notFound`: 405 with `Allow` when the path exists under another
 * method, else 404. Both in the envelope.
 */
export function notFoundHandler(allowedMethods: ReadonlyMap<string, readonly string[]>): NotFoundHandler {
  return (c) => {
    const allowed = allowedMethods.get(c.req.path);
    if (allowed === undefined) return problemResponse(c, new HttpProblem(404, 'NOT_FOUND', ['No such route']));
    return problemResponse(c, new HttpProblem(405, 'METHOD_NOT_ALLOWED', [`method: must be ${allowed.join(' or ')}`], {
      Allow: allowed.join(', '),
    }));
  };
}
