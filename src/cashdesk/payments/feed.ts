import type { SessionUpdate } from '../../contracts/cashdesk-payments.js';

/** Receives a till's `pay.sessionUpdated` notifications. */
export type UpdateListener = (update: SessionUpdate) => void;

/**
 * The tills connected to this instance, by till id, and what they listen
 * with (a till may hold several connections: each gets every update). A
 * listener that throws is skipped: one broken connection must not starve another.
 */
export class TillFeed {
  readonly #listeners = new Map<string, Set<UpdateListener>>();

  /** Adds a till's listener; returns the unsubscribe. */
  subscribe(tillId: string, listener: UpdateListener): () => void {
    let set = this.#listeners.get(tillId);
    if (set === undefined) this.#listeners.set(tillId, set = new Set());
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.#listeners.get(tillId) === set) this.#listeners.delete(tillId);
    };
  }

  /** Hands an update to the till's listeners on this instance. */
  deliver(tillId: string, update: SessionUpdate): void {
    for (const listener of this.#listeners.get(tillId) ?? []) {
      try {
        listener(update);
      } catch {
        // see above
      }
    }
  }
}

/** A stored view as the update that states it (sent again to a till that reconnects). */
export function updateOf(view: { paymentId: string; phase: SessionUpdate['phase']; status?: SessionUpdate['status']; statusClass?: SessionUpdate['statusClass']; reason?: string; transactionId?: string }): SessionUpdate {
  return {
    paymentId: view.paymentId, phase: view.phase,
    ...(view.status ? { status: view.status, statusClass: view.statusClass } : {}),
    ...(view.reason ? { reason: view.reason } : {}),
    ...(view.transactionId ? { transactionId: view.transactionId } : {}),
  };
}
