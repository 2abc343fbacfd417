import type { CheckoutAnswer, TransactionAnswer } from '../contracts/pay/answers.js';
import type { CheckoutRequest } from '../contracts/pay/bodies.js';
import { backoffDelay, type RetryPolicy } from '../net/backoff.js';
import type { Sleep } from '../time/sleep.js';
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
export type RecoveredCheckout = CheckoutAnswer & { state?: TransactionAnswer };

/** No answer, or one that could not be read: the checkout may have been committed. */
const unanswered = (error: unknown): error is PayError => error instanceof PayError && error.outcomeUnknown;

/**
 * POST /checkout, and the document's "no response" row (section 7) when even
 * the client's own retries got no usable answer (none, a 5xx, or a 2xx
 * without transactionId): each round sends the same /checkout again, same
 * requestId and cardSession, same bytes. Under profile `'kit'` a round first
 * asks /status by requestId (the kit's extension: the committed transaction
 * without a second checkout); a refusal of that probe (NOT_FOUND: nothing
 * was committed; or a service that does not know it) falls back to the
 * document's repeat, except a refused token, which ends the card. Never a new requestId while the outcome is unknown,
 * so the customer is never charged twice.
 *
 * @throws PayError when the service refuses; PaymentSessionError `OUTCOME_UNKNOWN` when no round got an answer.
 */
export async function submitCheckout(body: CheckoutRequest, r: CheckoutRecovery): Promise<RecoveredCheckout> {
  const probe = r.client.profile !== 'document';
  let last: PayError | undefined;
  for (let round = 0; round <= r.policy.max; round++) {
    if (round > 0) {
      await r.sleep(backoffDelay(round, r.policy, r.random));
      if (probe) {
        r.onStep('status', last!);
        try {
          const state = await r.client.status({ requestId: body.requestId, cardSession: body.cardSession });
          return {
            transactionId: state.transactionId,
            requestId: state.requestId ?? body.requestId,
            status: state.status,
            state,
          };
        } catch (error) {
          // A refused token ends the card (section 7, first row): no /checkout after it.
          if (!(error instanceof PayError) || error.code === 'TOKEN_INVALID') throw error;
          if (unanswered(error)) {
            last = error;
            continue;
          }
        }
      }
      r.onStep('checkout', last!);
    }
    try {
      return await r.client.checkout(body);
    } catch (error) {
      if (!unanswered(error)) throw error;
      last = error;
    }
  }
  throw new PaymentSessionError(
    'OUTCOME_UNKNOWN',
    `no answer to /checkout for requestId ${body.requestId}; recover() repeats it safely`,
    { cause: last },
  );
}
