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

/**
 * Whether a payment still concerns its till: not ended, and not a paid sale
 * whose receipt went out. Open payments are driven after a restart and sent
 * again to their till when it reconnects.
 */
export function isOpen(record: Pick<PaymentRecord, 'receiptSent'> & { view: Pick<PaymentView, 'phase'> }): boolean {
  return !ENDED.has(record.view.phase) && !(record.view.phase === 'succeeded' && record.receiptSent);
}
