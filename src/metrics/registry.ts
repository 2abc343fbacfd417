import { collectDefaultMetrics, type Metric, Registry } from 'prom-client';

/** The Prometheus text format's content type (0.0.4), what `GET /metrics` answers with. */
export const METRICS_CONTENT_TYPE: string = Registry.PROMETHEUS_CONTENT_TYPE;

let processMetrics: Registry | undefined;

/**
 * prom-client's gauges named like counters (`*_total`, which Prometheus' naming rules and `promtool check metrics`
 * keep for counters). Each is the sum of a gauge by type it also exports (`nodejs_active_handles{type}`, ...):
 * `sum(nodejs_active_handles)` is the same figure, so they are left out.
 */
const GAUGES_NAMED_AS_COUNTERS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/**
 * A registry for one server: the process's default metrics (CPU, resident
 * memory, heap, GC, event-loop lag, open handles; prom-client's
 * `collectDefaultMetrics`) and, as registered, the server's own. Never
 * prom-client's global registry: several servers share a process in tests
 * and the demo. The default metrics are collected once per process and
 * shared by every server's registry (one event-loop monitor and one GC
 * observer, not one per server); they describe the process, whichever
 * server is scraped.
 *
 * @example
 * const registry = serverRegistry();
 * registry.registerMetric(new Counter('wpk_things_total', 'Things.'));
 * const text = await renderMetrics(registry);
 */
export function serverRegistry(): Registry {
  if (processMetrics === undefined) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
    for (const name of GAUGES_NAMED_AS_COUNTERS) processMetrics.removeSingleMetric(name);
  }
  const registry = new Registry();
  // getMetricsAsArray() holds the metric objects themselves; its typings name only their description.
  for (const metric of processMetrics.getMetricsAsArray()) registry.registerMetric(metric as unknown as Metric);
  return registry;
}

/**
 * A registry's metrics in the Prometheus text format, one line each (prom-client
 * puts a blank line between metrics; the format ignores them, line-based readers
 * need not).
 */
export async function renderMetrics(registry: Registry): Promise<string> {
  return (await registry.metrics()).replace(/\n\n+/g, '\n');
}
