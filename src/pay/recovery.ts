import type { CheckoutRequest, CheckoutResponse, TransactionState } from '../contracts/pay/bodies.js';
import { backoffDelay, type RetryPolicy, type Sleep } from './backoff.js';
import type { PayClient } from './client.js';
import { PayError, PaymentSessionError } from './errors.js';

/** What {@link submitCheckout} needs. */
export interface CheckoutRecovery {
  client: PayClient;
  /** Rounds after the first try (`max`) and their backoff. */
  policy: RetryPolicy;
  sleep: Sleep;
  random: () => number;
  /** Told before each recovery step. */
  onStep(step: 'status' | 'checkout', error: PayError): void;
}

/** A checkout answer; `state` is set when it was recovered through /status. */
export type RecoveredCheckout = CheckoutResponse & { state?: TransactionState };

/**
 * POST /checkout, and the document's "no response" row when even the
 * client's own retries got no answer: each round first asks /status by
 * requestId (the checkout may have been committed, its answer lost), and only
 * when the service has no such transaction sends the same /checkout again,
 * same requestId, same bytes. Never a new requestId while the outcome is
 * unknown, so the customer is never charged twice.
 *
 * @throws PayError when the service refuses; PaymentSessionError `OUTCOME_UNKNOWN` when no round got an answer.
 */
export async function submitCheckout(body: CheckoutRequest, r: CheckoutRecovery): Promise<RecoveredCheckout> {
  let last: PayError | undefined;
  for (let round = 0; round <= r.policy.max; round++) {
    if (round > 0) {
      await r.sleep(backoffDelay(round, r.policy, r.random));
      r.onStep('status', last!);
      try {
        const state = await r.client.status({ requestId: body.requestId, cardSession: body.cardSession });
        return { transactionId: state.transactionId, requestId: state.requestId, status: state.status, state };
      } catch (error) {
        if (!(error instanceof PayError) || !(error.transient || error.code === 'NOT_FOUND')) throw error;
        if (error.transient) {
          last = error;
          continue;
        }
      }
      r.onStep('checkout', last!);
    }
    try {
      return await r.client.checkout(body);
    } catch (error) {
      if (!(error instanceof PayError) || !error.transient) throw error;
      last = error;
    }
  }
  throw new PaymentSessionError('OUTCOME_UNKNOWN',
    `no answer to /checkout for requestId ${body.requestId}; recover() repeats it safely`, { cause: last });
}
