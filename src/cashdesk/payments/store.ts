import type { PaymentView } from '../../contracts/cashdesk-payments.js';
import type { Queryable } from '../../db/index.js';
import type { PaymentSessionSnapshot } from '../../pay/session-types.js';
import { isOpen, type PaymentRecord } from './record.js';

function fromRow(row: Record<string, unknown>): PaymentRecord {
  return {
    tillId: String(row.till_id), paymentId: String(row.payment_id),
    ...(row.card_number === null || row.card_number === undefined ? {} : { cardNumber: String(row.card_number) }),
    receiptSent: Boolean(row.receipt_sent),
    snapshot: row.snapshot as PaymentSessionSnapshot, view: row.view as PaymentView, createdAt: row.created_at as Date,
  };
}

/** Largest number of payments `list` answers (most recent first). */
export const LIST_LIMIT = 200;

/**
 * The payment rows (`cashdesk_payments`). Every write is a whole record: the
 * session's snapshot and the view the till is told, so a restart carries on
 * from exactly what the till last saw.
 */
export class PaymentStore {
  constructor(private readonly db: Queryable) {}

  /** Inserts a new payment; false when the till already has one with this id (its idempotency key). */
  async insert(record: PaymentRecord): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `INSERT INTO cashdesk_payments (till_id, payment_id, phase, open, card_number, receipt_sent, snapshot, view, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9, $9) ON CONFLICT (till_id, payment_id) DO NOTHING`,
      [record.tillId, record.paymentId, record.view.phase, isOpen(record), record.cardNumber ?? null, record.receiptSent,
        JSON.stringify(record.snapshot), JSON.stringify(record.view), record.createdAt],
    );
    return rowCount === 1;
  }

  /** Writes a payment's current state. */
  async save(record: PaymentRecord): Promise<void> {
    await this.db.query(
      `UPDATE cashdesk_payments SET phase = $3, open = $4, receipt_sent = $5, snapshot = $6::jsonb, view = $7::jsonb, updated_at = $8
       WHERE till_id = $1 AND payment_id = $2`,
      [record.tillId, record.paymentId, record.view.phase, isOpen(record), record.receiptSent,
        JSON.stringify(record.snapshot), JSON.stringify(record.view), new Date(record.view.updatedAt)],
    );
  }

  /** One payment of a till. */
  async find(tillId: string, paymentId: string): Promise<PaymentRecord | undefined> {
    const { rows } = await this.db.query<Record<string, unknown>>(
      'SELECT * FROM cashdesk_payments WHERE till_id = $1 AND payment_id = $2', [tillId, paymentId]);
    return rows[0] === undefined ? undefined : fromRow(rows[0]);
  }

  /** A till's payments, most recent first, optionally in one phase. */
  async list(tillId: string, phase?: string): Promise<PaymentRecord[]> {
    const { rows } = await this.db.query<Record<string, unknown>>(
      `SELECT * FROM cashdesk_payments WHERE till_id = $1 AND ($2::text IS NULL OR phase = $2)
       ORDER BY created_at DESC, payment_id LIMIT ${LIST_LIMIT}`, [tillId, phase ?? null]);
    return rows.map(fromRow);
  }

  /** A till's open payments, oldest first. */
  async openOf(tillId: string): Promise<PaymentRecord[]> {
    const { rows } = await this.db.query<Record<string, unknown>>(
      'SELECT * FROM cashdesk_payments WHERE till_id = $1 AND open ORDER BY created_at, payment_id', [tillId]);
    return rows.map(fromRow);
  }

  /** Every open payment (to drive after a restart, or when the instance driving them is gone). */
  async allOpen(): Promise<Array<{ tillId: string; paymentId: string }>> {
    const { rows } = await this.db.query<{ till_id: string; payment_id: string }>(
      'SELECT till_id, payment_id FROM cashdesk_payments WHERE open ORDER BY created_at');
    return rows.map((r) => ({ tillId: r.till_id, paymentId: r.payment_id }));
  }
}
