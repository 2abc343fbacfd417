import type {
  CheckoutAnswer as CheckoutResponse,
  TransactionAnswer as TransactionState,
} from '../contracts/pay/answers.js';
import type { CheckoutRequest } from '../contracts/pay/bodies.js';
import { PayError, PaymentSessionError } from './errors.js';
import { type RecoveredCheckout, submitCheckout } from './recovery.js';
import type { SessionCore } from './session-core.js';
import { OVER } from './session-state.js';
import type { Basket, PaymentPhase } from './session-types.js';

/** The operator triggers the checkout (walletPayIsDefault false, the customer agreed). */
export function pay(s: SessionCore, providerId?: string): Promise<CheckoutResponse> {
  return s.exclusive(['offered'], () => {
    s.chooseProvider(providerId);
    return checkout(s, false, 'offered');
  });
}

/** The current payment's result, from a webhook or polling (a basket change meanwhile: the replacement's). */
export function waitForResult(s: SessionCore, { signal }: { signal?: AbortSignal } = {}): Promise<TransactionState> {
  const known = s.transaction;
  const result = known?.statusClass === 'successful' || known?.statusClass === 'unsuccessful';
  if ((s.phase === 'succeeded' || s.phase === 'unsuccessful') && known && result) return Promise.resolve(known);
  if (OVER.has(s.phase) || s.phase === 'new' || s.phase === 'offered' || (s.phase === 'unknown' && !s.awaitingResult)) {
    return Promise.reject(
      new PaymentSessionError('SESSION_STATE', `waitForResult: no payment is under way (phase ${s.phase})`),
    );
  }
  return s.ledger.wait(signal);
}

/**
 * The customer changed the basket: after the checkout, cancel and check out again (new requestId); before it, just the
 * basket.
 */
export function changeBasket(s: SessionCore, basket: Basket): Promise<CheckoutResponse | undefined> {
  return s.exclusive(['offered', 'pending', 'unsuccessful'], async () => {
    const from = s.phase;
    if (from === 'pending') {
      s.emit({ type: 'tellCustomerNotToConfirm', reason: 'BASKET_CHANGED' });
      await cancelCurrent(s);
    }
    // Only now: while the old invoice stands, totalAmount describes it.
    s.setBasket(basket);
    if (from === 'offered') return undefined;
    return checkout(s, true, 'unsuccessful');
  });
}

/** The customer cancels before the result; `ALREADY_PAID` when the bank was first. */
export function cancel(s: SessionCore): Promise<TransactionState> {
  return s.exclusive(['pending', 'unknown'], async () => {
    if (!s.awaitingResult)
      throw new PaymentSessionError('SESSION_STATE', 'cancel: no invoice is known (phase unknown: recover() first)');
    s.emit({ type: 'tellCustomerNotToConfirm', reason: 'CANCELLING' });
    const state = await cancelCurrent(s);
    s.setPhase('unsuccessful');
    s.ledger.settle(state);
    return state;
  });
}

/**
 * After a declined, cancelled-in-app or expired result: an updated checkout with a new requestId and the same card
 * session.
 */
export function retry(s: SessionCore): Promise<CheckoutResponse> {
  return s.exclusive(['unsuccessful'], () => checkout(s, true, 'unsuccessful'));
}

/** After `OUTCOME_UNKNOWN`: /status by requestId, then the same /checkout again (never a new requestId). */
export function recover(s: SessionCore): Promise<CheckoutResponse> {
  return s.exclusive(['unknown'], () => {
    // The invoice is known and still polled: another /checkout would only find it again.
    if (s.awaitingResult)
      throw new PaymentSessionError('SESSION_STATE', 'the payment is polled: its status word is not understood yet');
    return checkout(s, false, 'unknown');
  });
}

/** The desk falls back to another payment method; an open invoice is cancelled first. */
export function abandon(s: SessionCore): Promise<void> {
  return s.exclusive(['new', 'offered', 'pending', 'unknown', 'unsuccessful'], async () => {
    // An invoice whose status is not understood still stands: it is cancelled like a pending one.
    if (s.awaitingResult) {
      s.emit({ type: 'tellCustomerNotToConfirm', reason: 'CANCELLING' });
      await cancelCurrent(s).catch((error: unknown) => cancelFailed(s, error));
    }
    s.setPhase('abandoned');
  });
}

/**
 * The desk falls back whether or not the service took the cancel: an invoice the Pay API could not cancel stays open
 * there, left behind and watched, so a payment the customer still makes comes as `lateResult` (reconciliation's
 * `late_success`, to refund) instead of a sale the kit would count as the desk's. A refused token, or a failure that
 * is not the Pay API's, still refuses the abandon.
 */
function cancelFailed(s: SessionCore, error: unknown): void {
  if (!(error instanceof PayError) || s.phase === 'blocked') throw error;
  s.ledger.leave(s.current!.transactionId);
}

/** A checkout with every recovery: rescan on a refused card session, status-first recovery on no answer. */
export async function checkout(s: SessionCore, fresh: boolean, onRefusal: PaymentPhase): Promise<CheckoutResponse> {
  for (let rescans = 0; ; rescans++) {
    s.beginCheckout(fresh);
    const body: CheckoutRequest = {
      requestId: s.requestId,
      cardSession: s.cardSession,
      items: s.basket.items,
      discountAmount: s.basket.discountAmount ?? 0,
      totalAmount: s.totalAmount,
      ...(s.providerId && s.o.client.profile !== 'document' ? { providerId: s.providerId } : {}),
    };
    try {
      await s.o.checkpoint?.();
      const answer = await submitCheckout(body, {
        client: s.o.client,
        policy: s.recovery,
        sleep: s.o.sleep,
        random: s.o.random,
        onStep: (step, error) => s.emit({ type: 'recovering', step, requestId: body.requestId, error }),
      });
      accept(s, answer);
      return answer;
    } catch (error) {
      if (error instanceof PayError && error.code === 'CARD_SESSION_INVALID' && rescans < s.o.maxRescans) {
        await s.rescan('CARD_SESSION_INVALID', onRefusal);
        fresh = true; // the document: a new requestId with the new card session
        continue;
      }
      if (error instanceof PaymentSessionError && error.code === 'OUTCOME_UNKNOWN') {
        s.setUnknown('OUTCOME_UNKNOWN');
      } else {
        s.refused(error, onRefusal);
      }
      throw error;
    }
  }
}

function accept(s: SessionCore, answer: RecoveredCheckout): void {
  if (s.current) s.ledger.leave(s.current.transactionId);
  s.invoiced({ transactionId: answer.transactionId, requestId: answer.requestId, status: answer.status });
  if (answer.state) s.observe(answer.state);
  if (s.phase === 'pending') s.watcher.watch(answer.transactionId);
}

/** Cancels the current transaction; it then counts as left behind (a late success is reported). */
async function cancelCurrent(s: SessionCore): Promise<TransactionState> {
  const { transactionId } = s.current!;
  s.ledger.leave(transactionId);
  let state: TransactionState;
  try {
    state = await s.o.client.cancel({ transactionId }).catch((error: unknown) => {
      // Already final: the customer or the bank was first. A refusal in words the dialect does not map may mean
      // the same: what /status says decides.
      if (error instanceof PayError && (error.code === 'INVALID_STATE' || error.code === 'PAY_REFUSED')) {
        return s.o.client.status({ transactionId });
      }
      throw error;
    });
  } catch (error) {
    s.ledger.leave(transactionId, false);
    s.refused(error, s.phase);
    throw error;
  }
  if (state.statusClass === 'successful') {
    // Not left behind after all: it is the session's result (observing it settles the waits).
    s.ledger.leave(transactionId, false);
    s.observe(state);
    s.setPhase('succeeded');
    throw new PaymentSessionError(
      'ALREADY_PAID',
      `transaction ${transactionId} succeeded before it could be cancelled: refund it`,
    );
  }
  s.observe(state);
  // A cancelled payment stays watched: the bank may still answer it (a lateResult).
  return state;
}
