import type { TransactionRef } from '../contracts/pay/bodies.js';
import type { TransactionAnswer } from '../contracts/pay/answers.js';
import type { Sleep } from '../time/sleep.js';
import type { PayClient } from './client.js';
import type { TransactionUpdates } from './updates.js';

/** Options of {@link TransactionWatcher}. */
export interface WatcherOptions {
  client: PayClient;
  /** Webhook-fed states; polling goes on beside them as a safety net. */
  updates: TransactionUpdates | undefined;
  /** Time between two /status polls of the watched transactions. */
  pollIntervalMs: number;
  sleep: Sleep;
  /** Every state seen, from a webhook or a poll, in arrival order. */
  onState(state: TransactionAnswer): void;
}

/**
 * Waits for transactions' results two ways at once: `transaction.updated`
 * webhooks (through {@link TransactionUpdates}) and polling POST /status by
 * transactionId. Whichever comes first wins; the session drops stale or
 * repeated states. One poll loop serves every watched transaction.
 */
export class TransactionWatcher {
  readonly #options: WatcherOptions;
  readonly #watched = new Map<TransactionRef, () => void>();
  readonly #stop = new AbortController();
  /** Transactions polled less often: every `every` ticks (doubling up to 32), `skip` ticks to go before the next. */
  readonly #slow = new Map<TransactionRef, { every: number; skip: number }>();
  #polling = false;

  constructor(options: WatcherOptions) {
    this.#options = options;
  }

  /** Starts watching (idempotent). */
  watch(transactionId: TransactionRef): void {
    if (this.#watched.has(transactionId) || this.#stop.signal.aborted) return;
    // Watched before subscribing: `subscribe` hands over the last known state at once, and a final one unwatches the
    // transaction then. Entered after, it would stay watched (and polled) for good, its payment never at rest.
    let unsubscribe = (): void => {};
    const entry = (): void => unsubscribe();
    this.#watched.set(transactionId, entry);
    unsubscribe =
      this.#options.updates?.subscribe(transactionId, (state) => this.#options.onState(state)) ?? (() => {});
    if (this.#watched.get(transactionId) !== entry) {
      unsubscribe(); // unwatched (or closed) by that state
      return;
    }
    if (!this.#polling) void this.#poll();
  }

  /** Stops watching one transaction. */
  unwatch(transactionId: TransactionRef): void {
    this.#watched.get(transactionId)?.();
    this.#watched.delete(transactionId);
    this.#slow.delete(transactionId);
  }

  /**
   * `slow`: polls the transaction half as often as before (up to 1 in 32 ticks), for a payment whose status has
   * not been understood for long: it is still polled, so a later known status resolves it, without hammering the
   * service. `false`: back to every tick.
   */
  pace(transactionId: TransactionRef, slow: boolean): void {
    if (!slow) {
      this.#slow.delete(transactionId);
      return;
    }
    const every = Math.min(32, (this.#slow.get(transactionId)?.every ?? 1) * 2);
    this.#slow.set(transactionId, { every, skip: every - 1 });
  }

  /** Whether a transaction is watched. */
  watching(transactionId: TransactionRef): boolean {
    return this.#watched.has(transactionId);
  }

  /** Stops everything; no state is reported afterwards. */
  close(): void {
    this.#stop.abort();
    for (const unsubscribe of this.#watched.values()) unsubscribe();
    this.#watched.clear();
  }

  #skips(transactionId: TransactionRef): boolean {
    const slow = this.#slow.get(transactionId);
    if (slow === undefined || slow.skip === 0) {
      if (slow) slow.skip = slow.every - 1;
      return false;
    }
    slow.skip--;
    return true;
  }

  async #poll(): Promise<void> {
    this.#polling = true;
    const signal = this.#stop.signal;
    try {
      while (this.#watched.size > 0 && !signal.aborted) {
        await this.#options.sleep(this.#options.pollIntervalMs, signal);
        for (const transactionId of [...this.#watched.keys()]) {
          if (signal.aborted || !this.#watched.has(transactionId) || this.#skips(transactionId)) continue;
          try {
            // No retries inside a poll: the next tick is the retry.
            const state = await this.#options.client.status({ transactionId }, { retries: 0, signal });
            if (!signal.aborted && this.#watched.has(transactionId)) this.#options.onState(state);
          } catch {
            // No answer this time (or closed meanwhile): the next tick asks again.
          }
        }
      }
    } catch {
      // The sleep was aborted by close().
    } finally {
      this.#polling = false;
    }
  }
}
