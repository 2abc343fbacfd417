import { keyOf, type PaymentKey } from './rows.js';

/** Intents waiting for another instance to release a payment they want: woken by its hint, or after a while. */
export class ReleaseWaits {
  readonly #waits = new Map<string, Set<() => void>>();

  /** The owner released the payment: every intent waiting for it looks again now. */
  released(key: PaymentKey): void {
    for (const wake of this.#waits.get(keyOf(key)) ?? []) wake();
  }

  /** Settles when the payment is released, or after `ms` (no hint comes while the channel is down). */
  releasedOrAfter(key: PaymentKey, ms: number): Promise<void> {
    const k = keyOf(key);
    return new Promise((resolve) => {
      let set = this.#waits.get(k);
      if (set === undefined) {
        set = new Set();
        this.#waits.set(k, set);
      }
      const wake = () => {
        clearTimeout(timer);
        set.delete(wake);
        if (set.size === 0 && this.#waits.get(k) === set) this.#waits.delete(k);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      set.add(wake);
    });
  }
}
