import type { PaymentView, RefundIntent } from '../../contracts/cashdesk-payments.js';
import { KitError } from '../../errors.js';
import { currentRequestId } from '../../log/request-id.js';
import type { Payments } from '../payments/api.js';
import {
  type AuditedIntent,
  type IntentName,
  type IntentParams,
  type IntentResult,
  intentOf,
} from '../payments/intents.js';
import { auditCaller } from './audit-context.js';
import type { AuditAction, AuditRecord } from './audit-log.js';
import type { BackOfficeRecords } from './records.js';

/** The payments with their audit log. */
export type RecordedPayments = Payments & BackOfficeRecords;

/** The stable code an audited call failed with: its own code, else INTERNAL. */
export function outcomeOf(error: unknown): string {
  return error instanceof KitError ? error.code : 'INTERNAL';
}

/**
 * Payments whose money-moving intents (those `PAYMENT_INTENTS` marks `audited`) each append an audit record after
 * they settle: `ok` or the refusal's code, by the caller `withAuditCaller` names (default the till), with the
 * request id. A record that cannot be written is reported to `onError` and does not change the intent's answer:
 * the money already moved, or did not.
 */
export function auditedPayments(inner: RecordedPayments, onError: (error: unknown) => void): RecordedPayments {
  const audited = async (
    action: AuditAction,
    tillId: string,
    paymentId: string | undefined,
    run: () => Promise<PaymentView>,
    refund?: RefundIntent,
  ): Promise<PaymentView> => {
    const write = (outcome: string, view?: PaymentView) => {
      const caller = auditCaller();
      const record: AuditRecord = {
        actor: caller.actor ?? { kind: 'till', id: tillId },
        address: caller.address ?? null,
        action,
        tillId,
        paymentId: view?.paymentId ?? paymentId ?? null,
        refundId: refund?.refundId ?? null,
        amount: amountOf(view, refund),
        outcome,
        requestId: currentRequestId() ?? null,
      };
      return inner.recordAudit(record).catch(onError);
    };
    try {
      const view = await run();
      await write('ok', view);
      return view;
    } catch (error) {
      await write(outcomeOf(error));
      throw error;
    }
  };
  const intent = <N extends IntentName>(name: N, tillId: string, params: IntentParams<N>) => {
    const run = () => inner.intent(name, tillId, params);
    if (!intentOf(name).audited) return run();
    // An audited intent answers the payment's view; its action is its name.
    const action: AuditAction = name as AuditedIntent;
    const { paymentId } = params as { paymentId?: string };
    const refund = name === 'refund' ? (params as IntentParams<'refund'>) : undefined;
    return audited(action, tillId, paymentId, run as () => Promise<PaymentView>, refund) as Promise<IntentResult<N>>;
  };
  // Every call forwarded to `inner` itself: its methods may use its private fields.
  return {
    init: () => inner.init(),
    intent,
    subscribe: (t, listener) => inner.subscribe(t, listener),
    webhookHandler: () => inner.webhookHandler(),
    close: () => inner.close(),
    search: (search) => inner.search(search),
    recordAudit: (record) => inner.recordAudit(record),
    readAudit: (query) => inner.readAudit(query),
    reconciliation: (query) => inner.reconciliation(query),
    dayClose: (query) => inner.dayClose(query),
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
