import type { MiddlewareHandler } from 'hono';
import type { ServerMetrics } from '../../src/server/metrics.js';
import type { NodeEnv } from './node-env.js';

/** The `route` label of unknown paths: scanners probing random paths cannot grow the series without bound. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Counts answers into `wpk_http_requests_total{route,status}` once per
 * event-loop turn instead of once per request, as the bridge counts its calls
 * (adapters/ws/call-counter.ts): `Counter#inc` renders its label set to text on
 * every call, a cost the size of the HTTP adapter's own work per verify, while
 * a turn's answers mostly share one `{route,status}`.
 *
 * The turn's `setImmediate` adds them; it runs before any answer of the turn
 * can have reached its client and come back as another request, and `/metrics`
 * flushes before rendering, so no reader sees a request answered but not counted.
 */
export class RequestCounter {
  readonly #metrics: ServerMetrics;
  /** route → status → answers this turn. */
  readonly #pending = new Map<string, Map<number, number>>();
  #scheduled = false;
  readonly #onImmediate = (): void => {
    this.#scheduled = false;
    this.flush();
  };

  constructor(metrics: ServerMetrics) {
    this.#metrics = metrics;
  }

  /** Counts one answer; it reaches the counter by the end of this turn. */
  count(route: string, status: number): void {
    let statuses = this.#pending.get(route);
    if (statuses === undefined) {
      statuses = new Map();
      this.#pending.set(route, statuses);
    }
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#onImmediate);
    }
  }

  /** Adds the answers counted so far to the counter now. */
  flush(): void {
    if (this.#pending.size === 0) return;
    for (const [route, statuses] of this.#pending) {
      for (const [status, answers] of statuses) this.#metrics.httpRequests.inc({ route, status: String(status) }, answers);
    }
    this.#pending.clear();
  }
}

/**
 * Counts every answer of the Hono routes it is put on (the GET routes), errors
 * included. The raw POST routes and `notFound` count their own: a middleware
 * on every path would put Hono's compose on the POST hot path.
 */
export function countRequests(counter: RequestCounter): MiddlewareHandler<NodeEnv> {
  return async (c, next) => {
    await next();
    // After next() the answer is final: hono has already run onError. That writes the
    // envelope to the Node response itself, so c.res is then only a marker.
    const { outgoing } = c.env;
    // Only on exact known paths, so the path is the route.
    counter.count(c.req.path, outgoing.headersSent ? outgoing.statusCode : c.res.status);
  };
}
