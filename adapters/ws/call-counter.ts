import type { Counter } from '../../src/server/metrics.js';

/**
 * Counts bridge calls into `wpk_bridge_calls_total{method,outcome}` once per
 * event-loop turn instead of once per call.
 *
 * `Counter#inc` renders its label set to text on every call (escaping each
 * value): some 1.2 µs a call, half the verification itself. 32 calls in
 * flight mostly share one `{method="barcode.verify",outcome="ok"}`, so a turn
 * adds them in one `inc(labels, n)`. Connections flush before their answers
 * leave the process (see `TurnCork`), so a till that got an answer always
 * finds its call counted; calls without an answer are flushed by the turn's
 * own `setImmediate`.
 */
export class CallCounter {
  readonly #counter: () => Counter;
  /** method → outcome → calls this turn. */
  readonly #pending = new Map<string, Map<string, number>>();
  #scheduled = false;
  readonly #onImmediate = (): void => {
    this.#scheduled = false;
    this.flush();
  };

  /** @param counter the counter to add to, looked up at each flush. */
  constructor(counter: () => Counter) {
    this.#counter = counter;
  }

  /** Counts one call; it reaches the counter by the end of this turn. */
  count(method: string, outcome: string): void {
    let outcomes = this.#pending.get(method);
    if (outcomes === undefined) {
      outcomes = new Map();
      this.#pending.set(method, outcomes);
    }
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#onImmediate);
    }
  }

  /** Adds the calls counted so far to the counter now. */
  flush(): void {
    if (this.#pending.size === 0) return;
    const counter = this.#counter();
    for (const [method, outcomes] of this.#pending) {
      for (const [outcome, calls] of outcomes) counter.inc({ method, outcome }, calls);
    }
    this.#pending.clear();
  }
}
