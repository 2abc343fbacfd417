import type { Env, Hono, Schema } from 'hono';
import type { Registry } from 'prom-client';
import type { Counter } from '../../src/metrics/counter.js';
import { httpRequestsCounter } from '../../src/metrics/http-requests.js';
import { METRICS_CONTENT_TYPE, renderMetrics, serverRegistry } from '../../src/metrics/registry.js';
import { requestCounter, UNMATCHED_ROUTE } from './request-metrics.js';
import { routeTable } from './route-table.js';

/** The path every server of the kit serves its metrics under. */
export const METRICS_PATH = '/metrics';

/** One API server's metrics: its registry and its request count. */
export interface ApiMetrics {
  /** What `GET /metrics` renders: the process's default metrics and this server's series. */
  readonly registry: Registry;
  /** `wpk_http_requests_total{route,status}`, the cash desk server's series of the same name and meaning. */
  readonly httpRequests: Counter<'route' | 'status'>;
}

/**
 * A fresh set of metrics for one server (its own registry, never the
 * process-global one: several servers share a process in tests and the demo).
 *
 * @example
 * const app = createApiApp({ metrics: apiMetrics() });
 */
export function apiMetrics(): ApiMetrics {
  const registry = serverRegistry();
  const httpRequests = httpRequestsCounter();
  registry.registerMetric(httpRequests);
  return { registry, httpRequests };
}

/**
 * Counts every answer of `app` by route pattern (`/v1/cards/{cardNumber}`,
 * never the path: it may hold personal data and has no bound) and status,
 * and serves `GET /metrics` (unauthenticated, like `/healthz`: no secrets or
 * personal data in it; bind to loopback or filter at the proxy).
 * Mount it before the routes, so that it wraps them.
 */
export function mountMetrics<E extends Env, S extends Schema, P extends string>(
  app: Hono<E, S, P>,
  metrics: ApiMetrics,
): void {
  const routes = routeTable(app);
  const requests = requestCounter(metrics);
  app.use('*', async (c, next) => {
    await next();
    requests.count(routes(c.req.path)?.route ?? UNMATCHED_ROUTE, c.res.status);
  });
  app.get(METRICS_PATH, async (c) =>
    c.body(await renderMetrics(metrics.registry), 200, { 'Content-Type': METRICS_CONTENT_TYPE }),
  );
}
