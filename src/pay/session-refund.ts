import type { ReceiptAnswer as ReceiptResponse, RefundAnswer as RefundResponse } from '../contracts/pay/answers.js';
import type { RefundRequest } from '../contracts/pay/bodies.js';
import { PayError } from './errors.js';
import type { SessionCore } from './session-core.js';

/** Refunds the paid transaction (all, `amount` or `items`); a repeat after no answer reuses the refundId. */
export function refund(s: SessionCore, { refundId, ...part }: Pick<RefundRequest, 'amount' | 'items'> & { refundId?: string } = {}): Promise<RefundResponse> {
  return s.exclusive(['succeeded', 'refunded'], async () => {
    if (s.o.client.profile !== 'document') {
      if (refundId !== undefined) s.refundId = refundId;
      s.refundId ??= s.o.newId();
    }
    let answer: RefundResponse;
    try {
      await s.o.checkpoint?.();
      answer = await s.o.client.refund({ transactionId: s.current!.transactionId, ...(s.refundId ? { refundId: s.refundId } : {}), ...part });
    } catch (error) {
      if (error instanceof PayError && !error.transient) s.refundId = undefined;
      s.refused(error, s.phase);
      throw error;
    }
    s.refundId = undefined;
    if (answer.refundedAmount !== undefined) s.ledger.refunded(answer.transactionId, answer.refundedAmount);
    if (s.phase !== 'refunded') {
      s.setPhase('refunded');
      s.emit({ type: 'rescanNeeded', reason: 'REFUNDED' });
    }
    return answer;
  });
}

/** Sends the fiscal receipt of the paid transaction. */
export function sendReceipt(s: SessionCore, receipt: Record<string, unknown>): Promise<ReceiptResponse> {
  return s.exclusive(['succeeded', 'refunded'], () =>
    s.o.client.receipt({ transactionId: s.current!.transactionId, receipt }));
}
