import { collectDefaultMetrics, Registry, type Metric as PromMetric } from 'prom-client';

/** Label values of one series. */
export type Labels = Record<string, string>;

/** One exported sample, as prom-client's text formatter reads it. */
export interface Sample {
  labels: Record<string, string | number>;
  value: number;
  /** Default the metric's name (histograms: `_bucket`, `_sum`, `_count`). */
  metricName?: string;
}

/** A metric the kit keeps itself and prom-client renders: its name, kind and current samples. */
export interface KitMetric {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'gauge' | 'histogram';
  samples(): Sample[];
}

/** The Prometheus text format's content type (0.0.4), what `GET /metrics` answers with. */
export const METRICS_CONTENT_TYPE: string = Registry.PROMETHEUS_CONTENT_TYPE;

let processMetrics: Registry | undefined;

/**
 * A registry for one server: the process's default metrics (CPU, resident
 * memory, heap, GC, event-loop lag, open handles; prom-client's
 * `collectDefaultMetrics`) and, as `register()`ed, the server's own. Never
 * prom-client's global registry: several servers share a process in tests
 * and the demo. The default metrics are collected once per process and
 * shared by every server's registry (one event-loop monitor and one GC
 * observer, not one per server); they describe the process, whichever
 * server is scraped.
 *
 * @example
 * const registry = serverRegistry();
 * register(registry, new Counter('wpk_things_total', 'Things.'));
 * const text = await registry.metrics();
 */
export function serverRegistry(): Registry {
  if (processMetrics === undefined) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
    for (const name of GAUGES_NAMED_AS_COUNTERS) processMetrics.removeSingleMetric(name);
  }
  const registry = new Registry();
  for (const metric of processMetrics.getMetricsAsArray()) registry.registerMetric(metric as unknown as PromMetric);
  return registry;
}

/**
 * prom-client's gauges named like counters (`*_total`, which Prometheus' naming rules and `promtool check metrics`
 * keep for counters). Each is the sum of a gauge by type it also exports (`nodejs_active_handles{type}`, ...):
 * `sum(nodejs_active_handles)` is the same figure, so they are left out.
 */
const GAUGES_NAMED_AS_COUNTERS = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

/**
 * Registers a kit metric in a prom-client registry: prom-client asks for
 * its samples on each scrape and writes the text (escaping, `+Inf`).
 * @throws Error when the registry has another metric of that name.
 */
export function register(registry: Registry, metric: KitMetric): void {
  const read = async () => ({ name: metric.name, help: metric.help, type: metric.type, values: metric.samples(), aggregator: 'sum' as const });
  const exported = { name: metric.name, help: metric.help, type: metric.type, aggregator: 'sum', get: read, getForPromString: read, reset: () => {} };
  registry.registerMetric(exported as unknown as PromMetric);
}

/**
 * A registry's metrics in the Prometheus text format, one line each (prom-client
 * puts a blank line between metrics; the format ignores them, line-based readers
 * need not).
 */
export async function renderMetrics(registry: Registry): Promise<string> {
  return (await registry.metrics()).replace(/\n\n+/g, '\n');
}

/** The text a series is keyed by (its label set). */
function labelKey(labels: Labels): string {
  let key = '';
  for (const name in labels) key += `${name}=${JSON.stringify(labels[name])},`;
  return key;
}

/**
 * A monotonically increasing count per label set. The kit's own rather than
 * prom-client's `Counter`: that one hashes the label object on every
 * `inc()`, `labels()` children included, where {@link series} is bound
 * once and adds to a number.
 */
export class Counter implements KitMetric {
  readonly type = 'counter';
  readonly #series = new Map<string, { labels: Labels; value: number }>();

  constructor(readonly name: string, readonly help: string) {}

  #cell(labels: Labels): { labels: Labels; value: number } {
    const key = labelKey(labels);
    let cell = this.#series.get(key);
    if (cell === undefined) {
      cell = { labels: { ...labels }, value: 0 };
      this.#series.set(key, cell);
    }
    return cell;
  }

  inc(labels: Labels = {}, by = 1): void {
    this.#cell(labels).value += by;
  }

  /** The count of one label set (0 when never counted). */
  get(labels: Labels = {}): number {
    return this.#series.get(labelKey(labels))?.value ?? 0;
  }

  /**
   * A handle on one label set, found once: for hot paths, where finding the
   * series per call would cost more than the count. The series is exported
   * (at 0) from now on.
   */
  series(labels: Labels): { inc(by?: number): void } {
    const cell = this.#cell(labels);
    return { inc: (by = 1) => { cell.value += by; } };
  }

  samples(): Sample[] {
    return [...this.#series.values()].map(({ labels, value }) => ({ labels, value }));
  }
}

/** A value that goes up and down. */
export class Gauge implements KitMetric {
  readonly type = 'gauge';
  #value = 0;

  constructor(readonly name: string, readonly help: string) {}

  inc(by = 1): void {
    this.#value += by;
  }

  dec(by = 1): void {
    this.#value -= by;
  }

  get value(): number {
    return this.#value;
  }

  samples(): Sample[] {
    return [{ labels: {}, value: this.#value }];
  }
}

/** A histogram with fixed buckets (for latencies, seconds). */
export class Histogram implements KitMetric {
  readonly type = 'histogram';
  /** Observations at or below each bound (cumulative, as exported). */
  readonly #counts: number[];
  #sum = 0;
  #count = 0;

  constructor(readonly name: string, readonly help: string, readonly buckets: readonly number[]) {
    this.#counts = buckets.map(() => 0);
  }

  observe(value: number): void {
    this.#sum += value;
    this.#count++;
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]!) this.#counts[i]!++;
  }

  samples(): Sample[] {
    const bucket = `${this.name}_bucket`;
    return [
      ...this.buckets.map((le, i) => ({ metricName: bucket, labels: { le }, value: this.#counts[i]! })),
      { metricName: bucket, labels: { le: '+Inf' }, value: this.#count },
      { metricName: `${this.name}_sum`, labels: {}, value: this.#sum },
      { metricName: `${this.name}_count`, labels: {}, value: this.#count },
    ];
  }
}
