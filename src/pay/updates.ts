import type { TransactionAnswer as TransactionState } from '../contracts/pay/answers.js';
import type { TransactionRef } from '../contracts/pay/bodies.js';
import { Feed } from '../feed/feed.js';

/** A listener for one transaction's states. */
export type TransactionListener = (state: TransactionState) => void;

/**
 * Where `transaction.updated` webhooks meet the payment sessions waiting for
 * them: the webhook handler publishes, each session subscribes to its
 * transactions. The last state of recent transactions is kept, so a session
 * that subscribes after its webhook came (the webhook can beat the /checkout
 * answer) still gets it.
 */
export interface TransactionUpdates {
  /** Hands a state to the transaction's subscribers (and remembers it). */
  publish(state: TransactionState): void;
  /** Listens to one transaction; the last known state, if any, is delivered at once. Returns the unsubscribe. */
  subscribe(transactionId: TransactionRef, listener: TransactionListener): () => void;
}

/**
 * In-process {@link TransactionUpdates}. `remember` bounds the states kept
 * (oldest dropped first). Listener errors are swallowed so one bad listener
 * cannot starve the others.
 *
 * @example
 * const updates = createTransactionUpdates();
 * const handler = createPayWebhookHandler({ secrets: [secret], updates });
 * const session = createPaymentSession({ client, cardSession, basket, rescan, updates });
 */
export function createTransactionUpdates({ remember = 10_000 }: { remember?: number } = {}): TransactionUpdates {
  const last = new Map<TransactionRef, TransactionState>();
  const feeds = new Map<TransactionRef, Feed<TransactionState>>();
  return {
    publish(state) {
      last.delete(state.transactionId);
      last.set(state.transactionId, state);
      if (last.size > remember) last.delete(last.keys().next().value!);
      feeds.get(state.transactionId)?.publish(state);
    },
    subscribe(transactionId, listener) {
      let feed = feeds.get(transactionId);
      if (feed === undefined) {
        feed = new Feed();
        feeds.set(transactionId, feed);
      }
      const off = feed.subscribe({ next: listener });
      const known = last.get(transactionId);
      try {
        if (known !== undefined) listener(known);
      } catch {
        // as Feed does: the listener's own failure
      }
      return () => {
        off();
        if (feed.size === 0 && feeds.get(transactionId) === feed) feeds.delete(transactionId);
      };
    },
  };
}
