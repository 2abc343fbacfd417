import type { MiddlewareHandler } from 'hono';

function hasBody(headers: Headers): boolean {
  const length = headers.get('content-length');
  return headers.has('transfer-encoding') || (length !== null && length.trim() !== '0');
}

/**
 * Adds `Connection: close` to every refusal of a request that carried a body.
 * A refusal may come before the body is read (401, 413, 415, 404), and the
 * Node adapter then drains it only briefly before dropping the socket; a
 * keep-alive client would reuse that socket and see its next request fail.
 * Closing says so up front, and costs the till only a reconnect after an error.
 */
export const closeAfterRefusal: MiddlewareHandler = async (c, next) => {
  await next();
  if (c.res.status >= 400 && hasBody(c.req.raw.headers)) c.res.headers.set('Connection', 'close');
};
