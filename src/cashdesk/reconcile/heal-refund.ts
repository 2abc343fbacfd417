import type { PaymentRefund, PaymentView, SessionUpdate } from '../../contracts/cashdesk-payments.js';
import type { TransactionAnswer } from '../../contracts/pay/answers.js';
import type { PaymentSessionSnapshot, RefundRecord } from '../../pay/session-types.js';
import type { PaymentRecord } from '../payments/record.js';
import { type HealTarget, notify, writeUnheld } from './heal.js';

/** The refund the service made outside the kit, as the kit records it. */
interface OutsideRefund {
  refundId: string;
  transactionId: TransactionAnswer['transactionId'];
  amount: number;
  /** The transaction's refunded total at the service, this refund included. */
  refundedAmount: number;
  at: string;
}

/** What the kit counts as given back from a transaction (settled and pending: a pending one is still the kit's). */
function kitGiven(view: PaymentView, transactionId: string): number {
  return (view.refunds ?? [])
    .filter((r) => String(r.transactionId) === transactionId && r.status !== 'failed')
    .reduce((sum, r) => sum + (r.amount ?? 0), 0);
}

/**
 * When the service made the refund: its `updatedAt` (the transaction's last change, the refund's or later), when
 * it sent one that falls between the payment's start and now; else now. The service names no refund time.
 */
function madeAt(state: TransactionAnswer, record: PaymentRecord, now: Date): string {
  const said = state.updatedAt === undefined ? Number.NaN : Date.parse(state.updatedAt);
  if (Number.isNaN(said) || said > now.getTime() || said < record.createdAt.getTime()) return now.toISOString();
  return new Date(said).toISOString();
}

/** The payment with the outside refund in its session's ledger and its till's view. */
function withRefund(record: PaymentRecord, refund: OutsideRefund, now: string): PaymentRecord {
  const id = String(refund.transactionId);
  const raised = <T extends { transactionId: unknown }>(t: T): T =>
    String(t.transactionId) === id ? { ...t, refundedAmount: refund.refundedAmount } : t;
  const current = record.snapshot.transaction;
  const isCurrent = record.view.transactionId !== undefined && String(record.view.transactionId) === id;
  const total =
    record.view.transactions?.find((t) => String(t.transactionId) === id)?.totalAmount ?? record.view.totalAmount;
  const ended = isCurrent && record.view.phase === 'succeeded' && refund.refundedAmount >= total;
  const phase = ended ? 'refunded' : record.view.phase;
  const book: RefundRecord = {
    refundId: refund.refundId,
    transactionId: refund.transactionId,
    amount: refund.amount,
    state: 'succeeded',
    answer: { ...refund, status: 'succeeded' },
    origin: 'service',
    at: refund.at,
  };
  const snapshot: PaymentSessionSnapshot = {
    ...record.snapshot,
    phase,
    ...(current === undefined ? {} : { transaction: raised(current) as typeof current }),
    ...(record.snapshot.leftStates ? { leftStates: record.snapshot.leftStates.map(raised) } : {}),
    refunds: [...(record.snapshot.refunds ?? []), book],
  };
  const view: PaymentView = {
    ...record.view,
    phase,
    ...(isCurrent ? { refundedAmount: refund.refundedAmount } : {}),
    ...(record.view.transactions ? { transactions: record.view.transactions.map(raised) } : {}),
    refunds: [...(record.view.refunds ?? []), viewRefund(refund)],
    updatedAt: now,
  };
  return { ...record, snapshot, view };
}

function viewRefund(refund: OutsideRefund): PaymentRefund {
  const { refundId, amount, at } = refund;
  return { refundId, transactionId: String(refund.transactionId), amount, status: 'succeeded', origin: 'service', at };
}

/**
 * Records a refund the service shows and the kit never made (`refund_unknown`: another system of the merchant's
 * refunded at the Pay API); no money moves. It enters the payment's refunds with origin `service`, the time the
 * service said, and an id of the kit's (`service-<transactionId>-<refunded total>`: the service names none), so the
 * payment's refundedAmount, its till's view and the day-close count it. Only a payment no live instance holds is
 * written (one `refundUpdated` event for its till, told through an `events` hint); false when one holds it (its
 * session's ledger is its own: a later run heals it once the payment is at rest) or nothing is left to record.
 */
export async function healRefundUnknown(
  target: HealTarget,
  record: PaymentRecord,
  state: TransactionAnswer,
  now = new Date(),
): Promise<boolean> {
  const id = String(state.transactionId);
  const refundedAmount = state.refundedAmount ?? 0;
  const amount = refundedAmount - kitGiven(record.view, id);
  const refundId = `service-${id}-${refundedAmount}`;
  if (amount <= 0 || record.view.refunds?.some((r) => r.refundId === refundId)) return false;
  const refund = {
    refundId,
    transactionId: state.transactionId,
    amount,
    refundedAmount,
    at: madeAt(state, record, now),
  };
  const healed = withRefund(record, refund, now.toISOString());
  const update: SessionUpdate = {
    paymentId: record.paymentId,
    phase: healed.view.phase,
    ...(healed.view.status ? { status: healed.view.status, statusClass: healed.view.statusClass } : {}),
    ...(healed.view.transactionId ? { transactionId: healed.view.transactionId } : {}),
    event: 'refundUpdated',
    refund: viewRefund(refund),
  };
  const seq = await writeUnheld(target, healed, update, now.toISOString());
  if (seq === undefined) return false;
  await notify(target, { kind: 'events', tillId: record.tillId, paymentId: record.paymentId, seq });
  return true;
}
