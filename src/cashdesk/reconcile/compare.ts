import type { PaymentView } from '../../contracts/cashdesk-payments.js';
import type { TransactionAnswer } from '../../contracts/pay/answers.js';
import type { PaymentRecord } from '../payments/record.js';
import type { Discrepancy, DiscrepancyKind, KitSide, ServiceSide } from './report.js';

/** Phases in which a paid transaction is no longer the sale's: money paid there is to be given back. */
const GIVEN_UP = new Set(['abandoned', 'blocked', 'unavailable']);
/** Phases in which the kit may have sent a /checkout without learning its transaction. */
const CHECKOUT_SENT = new Set(['checkout', 'unknown', 'pending', 'abandoned', 'rescanning']);

/** One transaction of a payment to ask the service about, with what the kit knows of it. */
export interface KitTransaction {
  /** As the service wrote it; undefined when the kit never learnt it (asked by requestId and cardSession). */
  transactionId?: string | number;
  kit: KitSide;
}

/** What the service answered about one transaction: its state, or the failure's code (NOT_FOUND: none exists). */
export type ServiceAnswer = { state: TransactionAnswer } | { error: string };

/** What the kit counts as given back from a transaction: refunds settled, and refunds still pending. */
function kitRefunds(view: PaymentView, transactionId: string | number): { settled: number; pending: number } {
  let settled = 0;
  let pending = 0;
  for (const r of view.refunds ?? []) {
    if (String(r.transactionId) !== String(transactionId)) continue;
    if (r.status === 'succeeded') settled += r.amount ?? 0;
    if (r.status === 'pending') pending += r.amount ?? 0;
  }
  return { settled, pending };
}

/** The transactions of a payment to compare: every one its view lists, or the checkout it may have sent. */
export function transactionsOf(record: PaymentRecord): KitTransaction[] {
  const { view, snapshot } = record;
  const listed = view.transactions ?? [];
  if (listed.length > 0) {
    return listed.map((t) => ({
      transactionId: t.transactionId,
      kit: {
        phase: view.phase,
        status: t.status,
        ...(t.statusClass ? { statusClass: t.statusClass } : {}),
        ...(t.totalAmount === undefined ? {} : { totalAmount: t.totalAmount }),
        refundedAmount: kitRefunds(view, t.transactionId).settled,
        current: t.current,
      },
    }));
  }
  if (view.transactionId !== undefined) {
    const kit = { phase: view.phase, totalAmount: view.totalAmount, refundedAmount: 0, current: true };
    return [{ transactionId: view.transactionId, kit: { ...kit, ...statusOf(view) } }];
  }
  // A /checkout sent whose answer never came (the server died, or the answer was lost): ask by its requestId.
  if (snapshot.stage === 'checkout' && CHECKOUT_SENT.has(view.phase)) {
    return [{ kit: { phase: view.phase, totalAmount: view.totalAmount, refundedAmount: 0, current: true } }];
  }
  return [];
}

function statusOf(view: PaymentView): Pick<KitSide, 'status' | 'statusClass'> {
  return {
    ...(view.status ? { status: view.status } : {}),
    ...(view.statusClass ? { statusClass: view.statusClass } : {}),
  };
}

/** The service's side as reported. */
function serviceSide(answer: ServiceAnswer): ServiceSide {
  if ('error' in answer) return { error: answer.error };
  const s = answer.state;
  return {
    status: s.status,
    ...(s.statusClass ? { statusClass: s.statusClass } : {}),
    ...(s.totalAmount === undefined ? {} : { totalAmount: s.totalAmount }),
    refundedAmount: s.refundedAmount ?? 0,
  };
}

/** What one comparison is about: the payment, one of its transactions, and the rules' inputs. */
export interface Comparison {
  record: PaymentRecord;
  transaction: KitTransaction;
  answer: ServiceAnswer;
  store: string | null;
  /** The comparison's time, and how long a transaction may stay in transit before it is `stale_open`. */
  now: number;
  staleAfterMs: number;
}

/** The kinds one transaction shows: what the kit recorded against what the service answered. */
export function kindsOf(c: Comparison): DiscrepancyKind[] {
  const { kit } = c.transaction;
  if ('error' in c.answer) {
    // No transaction at the service for a checkout whose answer never came: nothing was made, nothing to find.
    if (c.answer.error === 'NOT_FOUND' && c.transaction.transactionId === undefined) return [];
    return ['status_unreadable'];
  }
  const s = c.answer.state;
  const kinds: DiscrepancyKind[] = [];
  if (s.statusClass === undefined) return ['status_unreadable'];
  const givenUp = !kit.current || GIVEN_UP.has(kit.phase);
  const serviceRefunded = s.refundedAmount ?? 0;
  if (s.statusClass === 'successful') {
    const total = s.totalAmount ?? kit.totalAmount;
    if (givenUp && (total === undefined || serviceRefunded < total)) kinds.push('late_success');
    else if (!givenUp && kit.statusClass !== 'successful') kinds.push('paid_untold');
    if (s.totalAmount !== undefined && kit.totalAmount !== undefined && s.totalAmount !== kit.totalAmount)
      kinds.push('amount_mismatch');
  }
  if (s.statusClass === 'unsuccessful' && kit.statusClass === 'successful') kinds.push('told_unpaid');
  if (s.statusClass === 'transit' && c.now - c.record.createdAt.getTime() > c.staleAfterMs) kinds.push('stale_open');
  const kitRefunded = c.transaction.transactionId === undefined ? { settled: 0, pending: 0 } : refundsOf(c);
  if (serviceRefunded > kitRefunded.settled + kitRefunded.pending) kinds.push('refund_unknown');
  if (kitRefunded.settled > serviceRefunded) kinds.push('refund_missing');
  return kinds;
}

function refundsOf(c: Comparison): { settled: number; pending: number } {
  return kitRefunds(c.record.view, c.transaction.transactionId!);
}

/** The discrepancies of one transaction, none healed yet. */
export function compareTransaction(c: Comparison): Discrepancy[] {
  const answered = 'state' in c.answer ? c.answer.state.transactionId : undefined;
  const id = c.transaction.transactionId ?? answered;
  return kindsOf(c).map((kind) => ({
    kind,
    tillId: c.record.tillId,
    store: c.store,
    paymentId: c.record.paymentId,
    transactionId: id === undefined ? null : String(id),
    kit: c.transaction.kit,
    service: serviceSide(c.answer),
    healed: false,
  }));
}

/** A receipt whose outcome never came (profile document): the payment's own finding, no transaction asked. */
export function receiptFinding(record: PaymentRecord, store: string | null): Discrepancy | undefined {
  if (record.view.receiptStatus !== 'unknown') return undefined;
  const { view } = record;
  return {
    kind: 'receipt_unknown',
    tillId: record.tillId,
    store,
    paymentId: record.paymentId,
    transactionId: view.transactionId === undefined ? null : String(view.transactionId),
    kit: {
      phase: view.phase,
      totalAmount: view.totalAmount,
      refundedAmount: view.refundedAmount ?? 0,
      current: true,
      ...statusOf(view),
    },
    service: {},
    healed: false,
  };
}
