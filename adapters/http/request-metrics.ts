import type { MiddlewareHandler } from 'hono';
import { type ServerMetrics, SeriesCounter } from '../../src/cashdesk/metrics.js';
import type { NodeEnv } from './node-env.js';
import { requestIdOf } from './request-id.js';

/** The `route` label of unknown paths: scanners probing random paths cannot grow the series without bound. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Counts answers into `wpk_http_requests_total{route,status}`. */
export function requestCounter(metrics: ServerMetrics): SeriesCounter {
  return new SeriesCounter(() => metrics.httpRequests, ['route', 'status']);
}

/**
 * Counts every answer of the Hono routes it is put on (the GET routes), errors
 * included, and gives them the request's `x-request-id`. The raw POST routes
 * and `notFound` count their own: a middleware on every path would put Hono's
 * compose on the POST hot path.
 */
export function countRequests(counter: SeriesCounter): MiddlewareHandler<NodeEnv> {
  return async (c, next) => {
    c.header('x-request-id', requestIdOf(c.env.incoming));
    await next();
    // After next() the answer is final: hono has already run onError. That writes the
    // envelope to the Node response itself, so c.res is then only a marker.
    const { outgoing } = c.env;
    // Only on exact known paths, so the path is the route.
    counter.count(c.req.path, outgoing.headersSent ? outgoing.statusCode : c.res.status);
  };
}
