import type { Registry } from 'prom-client';
import { Counter, Gauge, Histogram, METRICS_CONTENT_TYPE, register, renderMetrics, serverRegistry } from '../log/metrics.js';

export { Counter, Gauge, Histogram };

/**
 * Adds to a two-label counter once per event-loop turn instead of once per
 * event. Transports count every call or request, and a turn's events mostly
 * share one label pair: one `inc(labels, n)` per pair replaces rendering the
 * label text per event. The turn's `setImmediate` publishes them, before any
 * answer of the turn can come back as another request; `flush()` publishes at
 * once (before a scrape, or before answers leave the process).
 */
export class TurnCounter {
  readonly #counter: () => Counter;
  readonly #labels: readonly [string, string];
  /** first label value → second label value → its cell, kept: a turn's counts find their series handle without label text. */
  readonly #cells = new Map<string, Map<string | number, TurnCell>>();
  /** The cells counted this turn. */
  readonly #dirty: TurnCell[] = [];
  /** The counter the kept handles belong to (the getter may name another later: the handles are then dropped). */
  #boundTo: Counter | undefined;
  #scheduled = false;
  readonly #onImmediate = (): void => {
    this.#scheduled = false;
    this.flush();
  };

  /** @param counter looked up at each flush. @param labels the names of the two labels. */
  constructor(counter: () => Counter, labels: readonly [string, string]) {
    this.#counter = counter;
    this.#labels = labels;
  }

  /** Counts one event; it reaches the counter by the end of this turn. */
  count(first: string, second: string | number): void {
    let inner = this.#cells.get(first);
    if (inner === undefined) {
      inner = new Map();
      this.#cells.set(first, inner);
    }
    let cell = inner.get(second);
    if (cell === undefined) {
      cell = { first, second, events: 0, series: undefined };
      inner.set(second, cell);
    }
    if (cell.events++ === 0) this.#dirty.push(cell);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#onImmediate);
    }
  }

  /** Adds the events counted so far to the counter now. */
  flush(): void {
    if (this.#dirty.length === 0) return;
    const counter = this.#counter();
    if (counter !== this.#boundTo) {
      for (const inner of this.#cells.values()) for (const cell of inner.values()) cell.series = undefined;
      this.#boundTo = counter;
    }
    const [a, b] = this.#labels;
    for (const cell of this.#dirty) {
      cell.series ??= counter.series({ [a]: cell.first, [b]: String(cell.second) });
      cell.series.inc(cell.events);
      cell.events = 0;
    }
    this.#dirty.length = 0;
  }
}

/** One label pair of a {@link TurnCounter}: its events this turn and, once flushed, its series handle. */
interface TurnCell {
  readonly first: string;
  readonly second: string | number;
  events: number;
  series: { inc(by?: number): void } | undefined;
}

/**
 * The cash desk server's metrics in its own prom-client registry (with the
 * process's default metrics, see `serverRegistry`), rendered in the
 * Prometheus text format (0.0.4).
 */
export class ServerMetrics {
  /** The registry `GET /metrics` renders: the process's metrics and the series below. */
  readonly registry: Registry = serverRegistry();

  readonly verifications = new Counter('wpk_barcode_verifications_total', 'Barcode verifications by result.');
  readonly verifyDuration = new Histogram('wpk_barcode_verify_duration_seconds', 'Time to verify one barcode.',
    [0.000_01, 0.000_025, 0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.005, 0.025, 0.1]);
  readonly tokens = new Counter('wpk_tokens_total', 'Pay API tokens requested, by outcome.');
  readonly httpRequests = new Counter('wpk_http_requests_total', 'HTTP requests by route and status code.');
  readonly bridgeCalls = new Counter('wpk_bridge_calls_total', 'WebSocket bridge calls by method and outcome (ok, or the error code).');
  readonly bridgeConnections = new Gauge('wpk_bridge_connections', 'Open WebSocket bridge connections.');
  readonly authFailures = new Counter('wpk_auth_failures_total', 'Refused till authentications, by transport.');
  readonly authLockouts = new Counter('wpk_auth_lockouts_total', 'Addresses locked out after too many wrong till keys, by transport.');
  /** Valid barcodes by the key that matched: when key_index 1.. stays flat, a rotation's old key can go. */
  readonly keyMatches = new Counter('wpk_barcode_key_matches_total', 'Valid barcodes by the key that matched (0 the current key, 1.. previousKeys).');
  /** Valid barcodes by clock drift in steps: a wide spread points at phones with wrong clocks. */
  readonly driftSteps = new Histogram('wpk_barcode_drift_steps', 'Matched time step minus the current one, for valid barcodes.',
    [-10, -5, -3, -2, -1, 0, 1, 2, 3, 5, 10]);
  readonly bonusChecks = new Counter('wpk_bonus_checks_total', 'Bonus availability checks by outcome (available, unavailable, error).');

  /** Content type of `render()`. */
  static readonly contentType = METRICS_CONTENT_TYPE;

  constructor() {
    for (const metric of [this.verifications, this.verifyDuration, this.tokens, this.httpRequests, this.bridgeCalls, this.bridgeConnections,
      this.authFailures, this.authLockouts, this.keyMatches, this.driftSteps, this.bonusChecks]) register(this.registry, metric);
  }

  /** Everything in the Prometheus text format: the process's metrics, then the series above. */
  render(): Promise<string> {
    return renderMetrics(this.registry);
  }
}
