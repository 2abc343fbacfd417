import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { errorEnvelope } from '../../src/contracts/errors.js';
import { carriesBody } from './connection.js';
import type { HttpProblem } from './problems.js';
import { requestIdOf } from './request-id.js';

/**
 * Writes `body` as a JSON answer straight to the Node response, in one
 * `writeHead().end()`, with the request's `x-request-id`. The POST routes answer
 * this way rather than through a web `Response`: building and piping one costs
 * more than the verification itself.
 */
export function sendJson(outgoing: ServerResponse, status: number, body: unknown, extraHeaders?: Readonly<Record<string, string>>): void {
  const text = JSON.stringify(body);
  // A flat name/value list, which writeHead takes as it is: an object would be spread and walked key by key.
  const headers: Array<string | number> = ['content-type', 'application/json', 'content-length', Buffer.byteLength(text), 'x-request-id', requestIdOf(outgoing.req)];
  if (extraHeaders !== undefined) for (const name in extraHeaders) headers.push(name, extraHeaders[name]!);
  outgoing.writeHead(status, headers).end(text);
}

/**
 * Writes a refusal as the error envelope `{ status, errors, requestId }`, with the
 * problem's headers and `Connection: close` when the request carried a body
 * (see `carriesBody`). Every refusal of the app goes through here: the POST
 * routes' and Hono's onError and notFound alike.
 */
export function sendProblem(requestHeaders: IncomingHttpHeaders, outgoing: ServerResponse, problem: HttpProblem): void {
  const headers = carriesBody(requestHeaders) ? { ...problem.headers, connection: 'close' } : problem.headers;
  sendJson(outgoing, problem.httpStatus, errorEnvelope(problem.status, problem.errors, requestIdOf(outgoing.req)), headers);
}
