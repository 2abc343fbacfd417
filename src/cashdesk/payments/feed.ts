import type { PaymentView, SessionUpdate } from '../../contracts/cashdesk-payments.js';
import { unrefundedLate } from './record.js';

/** Receives a till's `pay.sessionUpdated` notifications. */
export type UpdateListener = (update: SessionUpdate) => void;

interface Subscription {
  listener: UpdateListener;
  /** The last event number told to this listener, per payment: an event told twice (or older) is dropped. */
  told: Map<string, number>;
}

/**
 * The tills connected to this instance, by till id, and what they listen
 * with (a till may hold several connections: each gets every update, in each
 * payment's order, once). A listener that throws is skipped: one broken
 * connection must not starve another.
 */
export class TillFeed {
  readonly #subscriptions = new Map<string, Set<Subscription>>();

  /**
   * Adds a till's listener. `restate` tells it a payment's state as read from its row, whatever it was told
   * before (never lowering its record of the last event told); `unsubscribe` removes it.
   */
  subscribe(tillId: string, listener: UpdateListener): { restate(update: SessionUpdate): void; unsubscribe(): void } {
    let set = this.#subscriptions.get(tillId);
    if (set === undefined) {
      set = new Set();
      this.#subscriptions.set(tillId, set);
    }
    const subscription: Subscription = { listener, told: new Map() };
    set.add(subscription);
    const all = this.#subscriptions;
    return {
      restate: (update) => tell(subscription, update, true),
      unsubscribe() {
        set.delete(subscription);
        if (set.size === 0 && all.get(tillId) === set) all.delete(tillId);
      },
    };
  }

  /** The tills with a listener here. */
  tills(): string[] {
    return [...this.#subscriptions.keys()];
  }

  /** The lowest event number of a payment told to every listener of its till here (-1: no listener). */
  toldOf(tillId: string, paymentId: string): number {
    const set = this.#subscriptions.get(tillId);
    if (set === undefined) return -1;
    let lowest = Number.MAX_SAFE_INTEGER;
    for (const s of set) lowest = Math.min(lowest, s.told.get(paymentId) ?? 0);
    return lowest;
  }

  /** Hands an update to the till's listeners here that have not had it (by its `seq`). */
  deliver(tillId: string, update: SessionUpdate): void {
    for (const subscription of this.#subscriptions.get(tillId) ?? []) tell(subscription, update);
  }
}

function tell(subscription: Subscription, update: SessionUpdate, always = false): void {
  if (update.seq !== undefined) {
    const told = subscription.told.get(update.paymentId) ?? 0;
    if (update.seq <= told && !always) return;
    subscription.told.set(update.paymentId, Math.max(told, update.seq));
  }
  try {
    subscription.listener(update);
  } catch {
    // see above
  }
}

/**
 * A stored view as the update that states it (sent again to a till that reconnects), as of event `seq`; a late
 * success not yet refunded is stated as its `lateResult` again, so a till that missed it still refunds it.
 */
export function updateOf(view: {
  paymentId: string; phase: SessionUpdate['phase']; status?: SessionUpdate['status'];
  statusClass?: SessionUpdate['statusClass']; reason?: string; transactionId?: SessionUpdate['transactionId'];
  transactions?: PaymentView['transactions'];
}, seq?: number): SessionUpdate {
  const late = unrefundedLate(view);
  return {
    paymentId: view.paymentId, phase: view.phase,
    ...(view.status ? { status: view.status, statusClass: view.statusClass } : {}),
    ...(view.reason ? { reason: view.reason } : {}),
    ...(view.transactionId ? { transactionId: view.transactionId } : {}),
    ...(late ? { event: 'lateResult', ...lateOf(late) } : {}),
    ...(seq === undefined || seq === 0 ? {} : { seq }),
    restated: true,
  };
}

function lateOf({ transactionId, status, statusClass }: NonNullable<PaymentView['transactions']>[number]) {
  return { transactionId, status, statusClass };
}
