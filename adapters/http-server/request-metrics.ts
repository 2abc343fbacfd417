import type { MiddlewareHandler } from 'hono';
import { type Counter, SeriesCounter } from '../../src/cashdesk/metrics.js';
import type { NodeEnv } from './node-env.js';
import { requestIdOf } from './request-id.js';

/** The `route` label of unknown paths: scanners probing random paths cannot grow the series without bound. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Where answers are counted: `wpk_http_requests_total{route,status}`. */
export interface RequestCounter {
  /** Counts one answer of `route` (the route's pattern, never the path: it may hold personal data). */
  count(route: string, status: string | number): void;
}

/** Counts answers into a server's `wpk_http_requests_total{route,status}`, through kept series handles. */
export function requestCounter(metrics: { readonly httpRequests: Counter }): RequestCounter {
  return new SeriesCounter(() => metrics.httpRequests, ['route', 'status']);
}

/**
 * Counts every answer of the Hono routes it is put on, errors included, and
 * gives them the request's `x-request-id`; for routes on exact paths (the path
 * is the route). Put on the routes of apps that keep middleware off their hot
 * path (the cash desk's GET routes, the console's), rather than on every path.
 */
export function countRequests(counter: RequestCounter): MiddlewareHandler<NodeEnv> {
  return async (c, next) => {
    c.header('x-request-id', requestIdOf(c.env.incoming));
    await next();
    // After next() the answer is final: hono has already run onError. That may write the
    // envelope to the Node response itself, so c.res is then only a marker.
    const { outgoing } = c.env;
    counter.count(c.req.path, outgoing.headersSent ? outgoing.statusCode : c.res.status);
  };
}
