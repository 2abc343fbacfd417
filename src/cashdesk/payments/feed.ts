import type { PaymentView, SessionUpdate } from '../../contracts/cashdesk-payments.js';
import { Feed } from '../../feed/feed.js';
import { unrefundedLate } from './record.js';

/** Receives a till's `pay.sessionUpdated` notifications. */
export type UpdateListener = (update: SessionUpdate) => void;

/** A listener with the last event number told to it, per payment: an event told twice (or older) is dropped. */
interface Subscription {
  next(update: SessionUpdate): void;
  told: Map<string, number>;
}

/**
 * The tills connected to this instance, by till id, and what they listen
 * with (a till may hold several connections: each gets every update, in each
 * payment's order, once): a {@link Feed} per till. A listener that throws is
 * skipped: one broken connection must not starve another.
 */
export class TillFeed {
  readonly #feeds = new Map<string, Feed<SessionUpdate, Subscription>>();

  /**
   * Adds a till's listener. `restate` tells it a payment's state as read from its row, whatever it was told
   * before (never lowering its record of the last event told); `unsubscribe` removes it.
   */
  subscribe(tillId: string, listener: UpdateListener): { restate(update: SessionUpdate): void; unsubscribe(): void } {
    let feed = this.#feeds.get(tillId);
    if (feed === undefined) {
      feed = new Feed();
      this.#feeds.set(tillId, feed);
    }
    const subscription: Subscription = { next: (update) => tell(subscription, listener, update), told: new Map() };
    const off = feed.subscribe(subscription);
    const feeds = this.#feeds;
    return {
      restate: (update) => tell(subscription, listener, update, true),
      unsubscribe() {
        off();
        if (feed.size === 0 && feeds.get(tillId) === feed) feeds.delete(tillId);
      },
    };
  }

  /** The tills with a listener here. */
  tills(): string[] {
    return [...this.#feeds.keys()];
  }

  /** The lowest event number of a payment told to every listener of its till here (-1: no listener). */
  toldOf(tillId: string, paymentId: string): number {
    const feed = this.#feeds.get(tillId);
    if (feed === undefined) return -1;
    let lowest = Number.MAX_SAFE_INTEGER;
    for (const s of feed.listeners()) lowest = Math.min(lowest, s.told.get(paymentId) ?? 0);
    return lowest;
  }

  /** Hands an update to the till's listeners here that have not had it (by its `seq`). */
  deliver(tillId: string, update: SessionUpdate): void {
    this.#feeds.get(tillId)?.publish(update);
  }
}

/** Tells a listener an update it has not had (`always`: a restatement, told whatever it had). */
function tell(subscription: Subscription, listener: UpdateListener, update: SessionUpdate, always = false): void {
  if (update.seq !== undefined) {
    const told = subscription.told.get(update.paymentId) ?? 0;
    if (update.seq <= told && !always) return;
    subscription.told.set(update.paymentId, Math.max(told, update.seq));
  }
  try {
    listener(update);
  } catch {
    // see TillFeed
  }
}

/**
 * A stored view as the update that states it (sent again to a till that reconnects), as of event `seq`; a late
 * success not yet refunded is stated as its `lateResult` again, so a till that missed it still refunds it.
 */
export function updateOf(
  view: {
    paymentId: string;
    phase: SessionUpdate['phase'];
    status?: SessionUpdate['status'];
    statusClass?: SessionUpdate['statusClass'];
    reason?: string;
    transactionId?: SessionUpdate['transactionId'];
    transactions?: PaymentView['transactions'];
  },
  seq?: number,
): SessionUpdate {
  const late = unrefundedLate(view);
  return {
    paymentId: view.paymentId,
    phase: view.phase,
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
