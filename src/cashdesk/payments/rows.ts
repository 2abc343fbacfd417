import type { PaymentView, SessionUpdate } from '../../contracts/cashdesk-payments.js';
import type { PaymentSessionSnapshot } from '../../pay/session-types.js';
import type { PaymentRecord } from './record.js';

/** Which payment: a till's own paymentId, unique per till. */
export interface PaymentKey {
  tillId: string;
  paymentId: string;
}

/** A payment row as read: its record, its lease and the sequence number of its last event. */
export interface StoredPayment {
  record: PaymentRecord;
  owner: string | null;
  epoch: number;
  seq: number;
}

/** One event of a payment as stored: what its till was told, numbered in the payment's order. */
export interface StoredEvent extends PaymentKey {
  seq: number;
  update: SessionUpdate;
}

/** The text that names a payment in maps and messages. Till ids never hold '/' ([A-Za-z0-9._-]). */
export const keyOf = (key: PaymentKey): string => `${key.tillId}/${key.paymentId}`;

/** A payment's key alone (a log line names no more of it). */
export const keyFields = ({ tillId, paymentId }: PaymentKey): PaymentKey => ({ tillId, paymentId });

/** A `cashdesk_payments` row as the record and lease it holds. */
export function fromRow(row: Record<string, unknown>): StoredPayment {
  return {
    record: {
      tillId: String(row.till_id),
      paymentId: String(row.payment_id),
      ...(row.card_number === null || row.card_number === undefined ? {} : { cardNumber: String(row.card_number) }),
      receiptSent: Boolean(row.receipt_sent),
      snapshot: row.snapshot as PaymentSessionSnapshot,
      view: row.view as PaymentView,
      createdAt: row.created_at as Date,
    },
    owner: row.owner === null || row.owner === undefined ? null : String(row.owner),
    epoch: Number(row.epoch ?? 0),
    seq: Number(row.seq ?? 0),
  };
}
