import type { PaymentView, RefundIntent } from '../../contracts/cashdesk-payments.js';
import { currentRequestId } from '../../log/request-id.js';
import { auditCaller } from './audit-context.js';
import type { AuditAction, AuditRecord } from './audit-log.js';

/** What one audited call was: its action, till, payment (as asked or as answered) and refund. */
export interface AuditedCall {
  action: AuditAction;
  tillId: string;
  paymentId?: string | undefined;
  refund?: RefundIntent | undefined;
}

/**
 * The audit record of a call that ended with `outcome` (`ok` with the payment's view, or a refusal's code), by the
 * caller `withAuditCaller` names (default the till) with the running request's id: read where the call runs.
 */
export function auditRecordOf(call: AuditedCall, outcome: string, view?: PaymentView): AuditRecord {
  const caller = auditCaller();
  return {
    actor: caller.actor ?? { kind: 'till', id: call.tillId },
    address: caller.address ?? null,
    action: call.action,
    tillId: call.tillId,
    paymentId: view?.paymentId ?? call.paymentId ?? null,
    refundId: call.refund?.refundId ?? null,
    amount: amountOf(view, call.refund),
    outcome,
    requestId: currentRequestId() ?? null,
  };
}

/** The amount a record names: the refund's (asked, or as answered), else the payment's total. */
function amountOf(view: PaymentView | undefined, refund: RefundIntent | undefined): number | null {
  if (refund !== undefined) {
    const answered = view?.refunds?.find((r) => r.refundId === refund.refundId)?.amount;
    return refund.amount ?? answered ?? null;
  }
  return view?.totalAmount ?? null;
}
