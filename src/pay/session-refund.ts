import type { TransactionRef } from '../contracts/pay/bodies.js';
import type { ReceiptAnswer as ReceiptResponse, RefundAnswer as RefundResponse } from '../contracts/pay/answers.js';
import type { RefundRequest } from '../contracts/pay/bodies.js';
import { PayError, PaymentSessionError } from './errors.js';
import { refundStateOf, sameRefund } from './refund-book.js';
import type { SessionCore } from './session-core.js';
import { sessionTransactionIds, totalOf } from './session-transactions.js';
import type { PaymentPhase, RefundRecord } from './session-types.js';

/** What `refund()` takes: which transaction (default: the current one), and all of it, `amount` kopecks or `items`. */
export type RefundPart = Pick<RefundRequest, 'amount' | 'items'> & {
  refundId?: string;
  transactionId?: TransactionRef;
};

// A transaction the session left behind may be paid late in any phase (document section 7, last line): its refund
// must stay possible. Only a blocked card (no call with it is possible) or no transaction at all rules it out.
const REFUNDABLE_IN: readonly PaymentPhase[] = [
  'new',
  'checking',
  'offered',
  'checkout',
  'rescanning',
  'pending',
  'unknown',
  'succeeded',
  'unsuccessful',
  'refunded',
  'abandoned',
];

/**
 * Refunds a paid transaction of the session: the current one, or one it left
 * behind that was paid late. A refundId already answered answers that refund
 * again (as last known: pending, succeeded or failed) without a call; the
 * same refundId for another refund is IDEMPOTENCY_CONFLICT. A refund the
 * service answers pending is followed until it settles (profile 'kit').
 */
export function refund(s: SessionCore, { refundId, transactionId, ...part }: RefundPart = {}): Promise<RefundResponse> {
  return s.exclusive(REFUNDABLE_IN, async () => {
    const book = s.ledger.refunds;
    const known = refundId === undefined ? undefined : book.get(refundId);
    if (known !== undefined) {
      if (!sameRefund(known, transactionId === undefined ? known.transactionId : transactionId, part)) {
        throw new PayError('IDEMPOTENCY_CONFLICT', `refundId ${refundId} was used for another refund of this payment`);
      }
      return known.answer;
    }
    const target =
      transactionId === undefined
        ? s.current?.transactionId
        : sessionTransactionIds(s).find((id) => String(id) === String(transactionId));
    if (target === undefined && transactionId !== undefined) {
      throw new PaymentSessionError('UNKNOWN_TRANSACTION', `transaction ${transactionId} is not one of this payment's`);
    }
    const state = target === undefined ? undefined : s.ledger.get(target);
    if (target === undefined || state?.statusClass !== 'successful') {
      const status = state?.status ?? 'none';
      throw new PaymentSessionError('SESSION_STATE', `nothing paid to refund (phase ${s.phase}, status ${status})`);
    }
    const id = s.refundIdFor(refundId);
    let answer: RefundResponse;
    try {
      await s.o.checkpoint?.();
      const sentId = s.o.client.profile === 'document' ? {} : { refundId: id };
      answer = await s.o.client.refund({ transactionId: target, ...sentId, ...part });
    } catch (error) {
      if (error instanceof PayError && !error.transient) s.refundSettled();
      s.refused(error, s.phase);
      throw error;
    }
    s.refundSettled();
    const record: RefundRecord = {
      refundId: id,
      transactionId: target,
      ...(part.amount === undefined ? {} : { amount: part.amount }),
      ...(part.items === undefined ? {} : { items: part.items }),
      state: refundStateOf(answer),
      answer,
    };
    settle(s, record);
    if (record.state === 'pending') follow(s, id);
    return answer;
  });
}

/**
 * Sends the fiscal receipt of the paid transaction (after a refund too: the document does not forbid it), with the
 * kit's `receiptId` when given (profile `'kit'` only: a repeat under it is not forwarded twice).
 */
export function sendReceipt(
  s: SessionCore,
  receipt: Record<string, unknown>,
  receiptId?: string,
): Promise<ReceiptResponse> {
  return s.exclusive(['succeeded', 'refunded'], () =>
    s.o.client.receipt({
      transactionId: s.current!.transactionId,
      receipt,
      ...(receiptId === undefined ? {} : { receiptId }),
    }),
  );
}

/**
 * Follows a pending refund: asks /refund again by its refundId (idempotent:
 * the service answers the refund as it stands) at the poll interval until it
 * is settled or the session closes. Only where the refundId is sent: under
 * profile 'document' a repeat could refund twice, so nothing is asked again.
 */
export function follow(s: SessionCore, refundId: string): void {
  const book = s.ledger.refunds;
  if (s.o.client.profile === 'document' || !book.follow(refundId)) return;
  const intervalMs = s.o.pollIntervalMs ?? (s.o.updates ? 10_000 : 2_000);
  void (async () => {
    try {
      for (let r = book.get(refundId); r?.state === 'pending'; r = book.get(refundId)) {
        await s.o.sleep(intervalMs, book.signal);
        let answer: RefundResponse;
        try {
          const { transactionId, amount, items } = r;
          const asked = { ...(amount === undefined ? {} : { amount }), ...(items === undefined ? {} : { items }) };
          const body = { transactionId, refundId, ...asked };
          answer = await s.o.client.refund(body, { retries: 0, signal: book.signal });
        } catch (error) {
          if (error instanceof PayError && error.code === 'TOKEN_INVALID') {
            s.refused(error, s.phase);
            return;
          }
          continue; // no answer this time: the next tick asks again
        }
        const state = refundStateOf(answer);
        if (state !== 'pending') settle(s, { ...r, state, answer });
      }
    } catch {
      // The session was closed while waiting.
    } finally {
      book.unfollow(refundId);
    }
  })();
}

/**
 * Takes a refund's (new) outcome: a refund given back raises the
 * transaction's refundedAmount (as the service answered it, else by the
 * amount given); the current transaction fully refunded ends the payment
 * (`refunded`); the first refund given back closes the card session.
 */
function settle(s: SessionCore, record: RefundRecord): void {
  const book = s.ledger.refunds;
  const firstGiven = record.state === 'succeeded' && !book.anySucceeded();
  book.set(record);
  const tx = record.transactionId;
  const known = s.ledger.get(tx);
  const total = totalOf(s, tx);
  if (record.state === 'succeeded') {
    const given = record.answer.amount ?? record.amount;
    const refundedAmount =
      record.answer.refundedAmount ??
      (given !== undefined ? (known?.refundedAmount ?? 0) + given : record.items === undefined ? total : undefined);
    if (refundedAmount !== undefined) s.ledger.refunded(tx, refundedAmount);
  }
  s.emit({ type: 'refund', refund: record });
  const refunded = s.ledger.get(tx)?.refundedAmount ?? 0;
  if (
    String(s.current?.transactionId) === String(tx) &&
    s.phase === 'succeeded' &&
    total !== undefined &&
    refunded >= total
  ) {
    s.setPhase('refunded');
  }
  if (firstGiven) s.emit({ type: 'rescanNeeded', reason: 'REFUNDED' });
}
