import type { Context } from 'hono';

/**
 * Sets the headers every server-sent event stream of the kit carries, so that
 * a reverse proxy passes each event on at once: `X-Accel-Buffering: no` turns
 * nginx's `proxy_buffering` off for this answer (with it on, a stream showed
 * nothing, not even its head, until the buffer filled), and `Cache-Control:
 * no-cache` keeps caches from holding it. Call before `streamSSE`.
 */
export function proxyFriendlyStream(c: Context): void {
  c.header('X-Accel-Buffering', 'no');
  c.header('Cache-Control', 'no-cache');
}
