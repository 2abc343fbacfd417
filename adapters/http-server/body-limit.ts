import type { Context, MiddlewareHandler } from 'hono';
import { payloadTooLarge } from './refusals.js';

/**
 * A body limit that never reads ahead: a declared `Content-Length` over
 * `maxBytes` is refused at once; a chunked body is counted as the handler
 * reads it, and fails with 413 once it passes `maxBytes`. Unlike hono's
 * `bodyLimit`, which buffers a chunked body whole before the next handler
 * runs, a route that checks credentials first (the sandbox's wallet token)
 * refuses a request before any of its body is read.
 *
 * @param onError the 413 answer (the route may have failed on the cut-short body: this answer replaces its own).
 */
export function streamingBodyLimit(maxBytes: number, onError: (c: Context) => Response): MiddlewareHandler {
  return async (c, next) => {
    const raw = c.req.raw;
    if (raw.body === null) return next();
    const chunked = raw.headers.has('transfer-encoding');
    const declared = raw.headers.get('content-length');
    if (declared !== null && !chunked) return Number.parseInt(declared, 10) > maxBytes ? onError(c) : next();
    let size = 0;
    let over = false;
    const limited = raw.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          size += chunk.byteLength;
          if (size <= maxBytes) {
            controller.enqueue(chunk);
            return;
          }
          over = true;
          controller.error(payloadTooLarge(maxBytes));
        },
      }),
    );
    // Built from its parts: node-server's own request class is not one undici's Request copies from.
    c.req.raw = new Request(raw.url, {
      method: raw.method,
      headers: raw.headers,
      signal: raw.signal,
      body: limited,
      duplex: 'half',
    } as RequestInit);
    await next();
    // Whatever the route made of a body cut short (a JSON parser says 400), the answer is 413.
    if (over) c.res = onError(c);
  };
}

/**
 * {@link streamingBodyLimit} for a request that has a body. Over a socket, a
 * request with neither Content-Length nor Transfer-Encoding has none (RFC 9112
 * 6.3; `curl -X POST` sends that): it goes on as an empty body, answered as one
 * (hono's own bodyLimit fails on it, building a Request from @hono/node-server's).
 * In-process requests (`app.request`) are always limited.
 */
export function requestBodyLimit(maxBytes: number, onError: (c: Context) => Response): MiddlewareHandler {
  const limit = streamingBodyLimit(maxBytes, onError);
  return (c, next) => {
    const framed = c.req.header('content-length') !== undefined || c.req.header('transfer-encoding') !== undefined;
    const overSocket = (c.env as { incoming?: unknown } | undefined)?.incoming !== undefined;
    return framed || !overSocket ? limit(c, next) : next();
  };
}
