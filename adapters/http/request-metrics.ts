import type { MiddlewareHandler } from 'hono';
import type { ServerMetrics } from '../../src/server/metrics.js';

/**
 * Counts every response in `wpk_http_requests_total{route,status}`.
 * `route` is the path only for the app's own routes and `unmatched` otherwise,
 * so scanners probing random paths cannot grow the series without bound.
 */
export function countRequests(metrics: ServerMetrics, knownPaths: ReadonlySet<string>): MiddlewareHandler {
  return async (c, next) => {
    await next();
    // After next() c.res is final: hono has already run onError or notFound.
    const route = knownPaths.has(c.req.path) ? c.req.path : 'unmatched';
    metrics.httpRequests.inc({ route, status: String(c.res.status) });
  };
}
