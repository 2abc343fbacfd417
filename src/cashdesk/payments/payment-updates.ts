import type { PaymentRefund, PaymentView, SessionUpdate } from '../../contracts/cashdesk-payments.js';
import type { PaymentSessionEvent, RefundRecord } from '../../pay/session-types.js';

/** Session events a till is told about, besides phase changes. */
const TOLD = new Set<PaymentSessionEvent['type']>([
  'offerWalletPay',
  'showProviderMessages',
  'tellCustomerNotToConfirm',
  'rescanNeeded',
  'lateResult',
  'cardRefused',
  'refund',
  'statusNotUnderstood',
]);

/** Whether the till is told about a session event (a phase change, or an event it must act on). */
export function told(event: PaymentSessionEvent): boolean {
  return event.type === 'phase' || TOLD.has(event.type);
}

/** A refund as the till sees it. */
export function refundOf(r: RefundRecord): PaymentRefund {
  const amount = r.answer.amount ?? r.amount;
  const { refundId, transactionId, state: status } = r;
  const outside = r.origin === undefined ? {} : { origin: r.origin, ...(r.at === undefined ? {} : { at: r.at }) };
  return { refundId, transactionId, ...(amount === undefined ? {} : { amount }), status, ...outside };
}

/** The `pay.sessionUpdated` that tells a session event, over the payment's view once the event happened. */
export function updateFor(view: PaymentView, event: PaymentSessionEvent): SessionUpdate {
  const update: SessionUpdate = {
    paymentId: view.paymentId,
    phase: view.phase,
    ...(view.status ? { status: view.status, statusClass: view.statusClass } : {}),
    ...(view.reason ? { reason: view.reason } : {}),
    ...(view.transactionId ? { transactionId: view.transactionId } : {}),
  };
  switch (event.type) {
    case 'phase':
      return update;
    case 'showProviderMessages':
      return { ...update, event: event.type, messages: event.messages };
    case 'tellCustomerNotToConfirm':
    case 'rescanNeeded':
      return { ...update, event: event.type, reason: event.reason };
    case 'cardRefused':
      return { ...update, event: event.type, reason: event.error.code };
    case 'refund':
      return { ...update, event: 'refundUpdated', refund: refundOf(event.refund) };
    case 'lateResult': {
      const { transactionId, status, statusClass } = event.state;
      return { ...update, event: event.type, transactionId, status, ...(statusClass ? { statusClass } : {}) };
    }
    case 'statusNotUnderstood': {
      // The word as written, and no class: the dialect does not know it.
      const { statusClass: _none, ...rest } = update;
      return { ...rest, event: event.type, transactionId: event.state.transactionId, status: event.state.status };
    }
    default:
      return { ...update, event: event.type as SessionUpdate['event'] };
  }
}
