import { Gauge, type Metric, type Registry } from 'prom-client';
import { DISCREPANCY_KINDS } from '../contracts/back-office-reports.js';
import { Counter, type CounterSeries } from '../metrics/counter.js';
import { Histogram } from '../metrics/histogram.js';
import { httpRequestsCounter } from '../metrics/http-requests.js';
import { METRICS_CONTENT_TYPE, renderMetrics, serverRegistry } from '../metrics/registry.js';

export { Counter, Gauge, Histogram };

/**
 * Counts events into a two-label counter through a kept series handle per
 * label pair, so an event costs two Map look-ups and an addition, never the
 * label text. Transports count every call or request. (It once added a turn's
 * events at the turn's end, behind a `setImmediate` per turn, to spare the
 * label text; with the handles kept that cost more than it saved, ~1% of the
 * HTTP verify route's CPU.) Counts reach the counter when it is read.
 */
export class SeriesCounter {
  readonly #counter: () => Counter;
  readonly #labels: readonly [string, string];
  /** first label value → second label value → its series handle. */
  readonly #series = new Map<string, Map<string | number, CounterSeries>>();
  /** The counter the kept handles belong to (the getter may name another later: the handles are then dropped). */
  #boundTo: Counter | undefined;

  /** @param counter looked up at each count. @param labels the names of the two labels. */
  constructor(counter: () => Counter, labels: readonly [string, string]) {
    this.#counter = counter;
    this.#labels = labels;
  }

  /** Counts one event. */
  count(first: string, second: string | number): void {
    const counter = this.#counter();
    if (counter !== this.#boundTo) {
      this.#series.clear();
      this.#boundTo = counter;
    }
    let inner = this.#series.get(first);
    if (inner === undefined) {
      inner = new Map();
      this.#series.set(first, inner);
    }
    let series = inner.get(second);
    if (series === undefined) {
      const [a, b] = this.#labels;
      series = counter.series({ [a]: first, [b]: String(second) });
      inner.set(second, series);
    }
    series.inc();
  }
}

/**
 * The cash desk server's metrics in its own prom-client registry (with the
 * process's default metrics, see `serverRegistry`), rendered in the
 * Prometheus text format (0.0.4).
 */
export class ServerMetrics {
  /** The registry `GET /metrics` renders: the process's metrics and the series below. */
  readonly registry: Registry = serverRegistry();

  readonly verifications = new Counter('wpk_barcode_verifications_total', 'Barcode verifications by result.', [
    'result_code',
    'reason',
  ]);
  readonly verifyDuration = new Histogram(
    'wpk_barcode_verify_duration_seconds',
    'Time to verify one barcode.',
    [0.000_01, 0.000_025, 0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.005, 0.025, 0.1],
  );
  readonly tokens = new Counter('wpk_tokens_total', 'Pay API tokens requested, by outcome.', ['outcome']);
  readonly httpRequests = httpRequestsCounter();
  readonly bridgeCalls = new Counter(
    'wpk_bridge_calls_total',
    'WebSocket bridge calls by method and outcome (ok, or the error code).',
    ['method', 'outcome'],
  );
  readonly bridgeConnections = new Gauge({
    name: 'wpk_bridge_connections',
    help: 'Open WebSocket bridge connections.',
    registers: [],
  });
  readonly authFailures = new Counter('wpk_auth_failures_total', 'Refused till authentications, by transport.', [
    'transport',
  ]);
  readonly authLockouts = new Counter(
    'wpk_auth_lockouts_total',
    'Addresses locked out after too many wrong till keys, by transport.',
    ['transport'],
  );
  /** Valid barcodes by the key that matched: when key_index 1.. stays flat, a rotation's old key can go. */
  readonly keyMatches = new Counter(
    'wpk_barcode_key_matches_total',
    'Valid barcodes by the key that matched (0 the current key, 1.. previousKeys).',
    ['key_index'],
  );
  /** Valid barcodes by clock drift in steps: a wide spread points at phones with wrong clocks. */
  readonly driftSteps = new Histogram(
    'wpk_barcode_drift_steps',
    'Matched time step minus the current one, for valid barcodes.',
    [-10, -5, -3, -2, -1, 0, 1, 2, 3, 5, 10],
  );
  readonly bonusChecks = new Counter(
    'wpk_bonus_checks_total',
    'Bonus availability checks by outcome (available, unavailable, error).',
    ['outcome'],
  );
  /** Pay API words the configured dialect does not map: extend `pay.dialect` when this grows. */
  readonly payWordsNotUnderstood = new Counter(
    'wpk_pay_words_not_understood_total',
    'Pay API status words (kind status, once per transaction) and refusal codes (kind code) the dialect does not ' +
      'map, by operation.',
    ['operation', 'kind'],
  );

  /** The background reconciliation's discrepancies left to act on (the same figure on every instance: take max). */
  readonly payDiscrepancies = new Gauge({
    name: 'wpk_pay_discrepancies',
    help: "Discrepancies between the kit's payments and the Pay service's records left to act on, by kind.",
    labelNames: ['kind'],
    registers: [],
  });

  /** Content type of `render()`. */
  static readonly contentType = METRICS_CONTENT_TYPE;

  constructor() {
    for (const metric of [
      this.verifications,
      this.verifyDuration,
      this.tokens,
      this.httpRequests,
      this.bridgeCalls,
      this.bridgeConnections,
      this.authFailures,
      this.authLockouts,
      this.keyMatches,
      this.driftSteps,
      this.bonusChecks,
      this.payWordsNotUnderstood,
      this.payDiscrepancies,
    ]) {
      this.registry.registerMetric(metric as Metric);
    }
  }

  /** Sets `wpk_pay_discrepancies` from a report's counts: every kind, 0 where none. */
  setDiscrepancies(counts: Readonly<Record<string, number>>): void {
    for (const kind of DISCREPANCY_KINDS) this.payDiscrepancies.set({ kind }, counts[kind] ?? 0);
  }

  /** Everything in the Prometheus text format: the process's metrics, then the series above. */
  render(): Promise<string> {
    return renderMetrics(this.registry);
  }
}
