import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { currentRequestId, REQUEST_ID_HEADER, requestIdFrom } from '../../src/log/request-id.js';

const ID = Symbol('wpk.requestId');

/**
 * The id of a request: its sane `X-Request-Id`, else a new UUID, made once
 * per request and kept on the Node request, so the answer's header, its
 * refusal's `requestId` and its log lines agree.
 */
export function requestIdOf(incoming: IncomingMessage): string {
  const held = incoming as IncomingMessage & { [ID]?: string };
  const id = held[ID] ?? requestIdFrom(incoming.headers['x-request-id']);
  held[ID] = id;
  return id;
}

/**
 * The id of the request a Hono context answers: the one its handling runs under, else the one its
 * answer already carries; for `app.request()` in tests as much as for a request over a socket.
 */
export function requestIdOfContext(c: Context): string | undefined {
  return currentRequestId() ?? c.res.headers.get(REQUEST_ID_HEADER) ?? undefined;
}

/** The id for a new request of `c`: the Node request's (see {@link requestIdOf}) when served over a socket. */
export function requestIdFor(c: Context): string {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming === undefined ? requestIdFrom(c.req.header(REQUEST_ID_HEADER)) : requestIdOf(incoming);
}
