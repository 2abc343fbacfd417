import type { PaymentView } from '../../contracts/cashdesk-payments.js';
import type { PaymentPhase, PaymentSessionSnapshot } from '../../pay/session-types.js';

/** Phases after which nothing more happens to a payment (a rescan starts a new one). */
export const ENDED: ReadonlySet<PaymentPhase> = new Set(['unavailable', 'refunded', 'blocked', 'abandoned']);

/** One till payment as stored: its session's snapshot, what the till was last told, and the sale's own facts. */
export interface PaymentRecord {
  tillId: string;
  paymentId: string;
  /** From the verified barcode (a rescan must be the same card); undefined when the till gave a card session. */
  cardNumber?: string;
  receiptSent: boolean;
  snapshot: PaymentSessionSnapshot;
  view: PaymentView;
  createdAt: Date;
}

/** A view's transactions and phase: what says whether money paid late is still the customer's. */
type Late = Pick<PaymentView, 'phase' | 'transactions'>;

/**
 * A transaction the payment left behind (replaced or cancelled; any of an
 * ended payment) that the bank paid after all and that is not refunded in
 * full: money the till must give back (the document's section 7, last line).
 */
export function unrefundedLate(view: Late): NonNullable<PaymentView['transactions']>[number] | undefined {
  return view.transactions?.find(
    (t) =>
      (!t.current || ENDED.has(view.phase)) &&
      t.statusClass === 'successful' &&
      t.refundedAmount < (t.totalAmount ?? 1),
  );
}

/**
 * Whether a payment still concerns its till: not ended, and not a paid sale
 * whose receipt went out; or, whatever its phase, a late success in it not
 * yet refunded. Open payments are driven after a restart and sent again to
 * their till when it reconnects.
 */
export function isOpen(record: Pick<PaymentRecord, 'receiptSent'> & { view: Late }): boolean {
  const { view } = record;
  const sold = view.phase === 'succeeded' && record.receiptSent;
  return (!ENDED.has(view.phase) && !sold) || unrefundedLate(view) !== undefined;
}
