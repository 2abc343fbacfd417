import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Context } from 'hono';
import { errorEnvelope } from '../../src/contracts/errors.js';
import { carriesBody } from './connection.js';
import type { HttpProblem } from './problem.js';
import { requestIdOf, requestIdOfContext } from './request-id.js';

/**
 * Writes `body` as a JSON answer straight to the Node response, in one
 * `writeHead().end()`, with the request's `x-request-id`. The raw routes answer
 * this way rather than through a web `Response`: building and piping one costs
 * more than the verification itself.
 */
export function sendJson(
  outgoing: ServerResponse,
  status: number,
  body: unknown,
  extraHeaders?: Readonly<Record<string, string>>,
): void {
  const text = JSON.stringify(body);
  // A flat name/value list, which writeHead takes as it is: an object would be spread and walked key by key.
  const headers: Array<string | number> = [
    'content-type',
    'application/json',
    'content-length',
    Buffer.byteLength(text),
    'x-request-id',
    requestIdOf(outgoing.req),
  ];
  if (extraHeaders !== undefined) for (const name in extraHeaders) headers.push(name, extraHeaders[name]!);
  outgoing.writeHead(status, headers).end(text);
}

/**
 * Writes a refusal as the error envelope `{ status, errors, requestId }` to the Node response, with the
 * problem's headers and `Connection: close` when the request carried a body (see `carriesBody`): the way
 * of the raw routes and of the apps that answer refusals on the Node response (the cash desk's).
 */
export function writeProblem(
  requestHeaders: IncomingHttpHeaders,
  outgoing: ServerResponse,
  problem: HttpProblem,
): void {
  const headers = carriesBody(requestHeaders) ? { ...problem.headers, connection: 'close' } : problem.headers;
  sendJson(
    outgoing,
    problem.httpStatus,
    errorEnvelope(problem.status, problem.errors, requestIdOf(outgoing.req)),
    headers,
  );
}

/** Requests whose refusals leave the id out of the body (see {@link keepRequestIdInHeader}). */
const headerOnly = new WeakSet<object>();

/** The refusals of this request carry its id in `x-request-id` only, not as `requestId` in the body. */
export function keepRequestIdInHeader(c: Context): void {
  headerOnly.add(c.req.raw);
}

/** Answers a refusal as the error envelope through Hono, with the request's id (see {@link writeProblem}). */
export function sendProblem(c: Context, problem: HttpProblem): Response {
  const id = headerOnly.has(c.req.raw) ? undefined : requestIdOfContext(c);
  return c.json(errorEnvelope(problem.status, problem.errors, id), problem.httpStatus as 400, problem.headers);
}
