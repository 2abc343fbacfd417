import type { PaymentView } from '../../contracts/cashdesk-payments.js';
import type { Queryable } from '../../db/index.js';
import type { PaymentSessionSnapshot } from '../../pay/session-types.js';
import { isOpen, type PaymentRecord } from './record.js';
import { TurnBatch } from './turn-batch.js';

function fromRow(row: Record<string, unknown>): PaymentRecord {
  return {
    tillId: String(row.till_id), paymentId: String(row.payment_id),
    ...(row.card_number === null || row.card_number === undefined ? {} : { cardNumber: String(row.card_number) }),
    receiptSent: Boolean(row.receipt_sent),
    snapshot: row.snapshot as PaymentSessionSnapshot, view: row.view as PaymentView, createdAt: row.created_at as Date,
  };
}

// Till ids never hold '/' ([A-Za-z0-9._-]).
const rowKey = (r: Pick<PaymentRecord, 'tillId' | 'paymentId'>) => `${r.tillId}/${r.paymentId}`;

/** Largest number of payments `list` answers (most recent first). */
export const LIST_LIMIT = 200;

/**
 * The payment rows (`cashdesk_payments`). Every write is a whole record: the
 * session's snapshot and the view the till is told, so a restart carries on
 * from exactly what the till last saw. The inserts, and the writes, of one
 * turn go in one statement (atomic): each caller's promise settles once its
 * row is written, as with a statement of its own.
 */
export class PaymentStore {
  readonly #inserts = new TurnBatch<PaymentRecord, boolean>((records) => this.#insertAll(records));
  readonly #saves = new TurnBatch<PaymentRecord, void>((records) => this.#saveAll(records));

  constructor(private readonly db: Queryable) {}

  /** Inserts a new payment; false when the till already has one with this id (its idempotency key). */
  insert(record: PaymentRecord): Promise<boolean> {
    return this.#inserts.add(record);
  }

  /** Writes a payment's current state (with the other payments' writes of the same turn, in one statement). */
  save(record: PaymentRecord): Promise<void> {
    return this.#saves.add(record);
  }

  /** One statement for a batch of new payments; the first of a paymentId in the batch is the one inserted. */
  async #insertAll(records: PaymentRecord[]): Promise<boolean[]> {
    const first = new Map<string, PaymentRecord>();
    for (const r of records) if (!first.has(rowKey(r))) first.set(rowKey(r), r);
    const { rows } = await this.db.query<{ till_id: string; payment_id: string }>(
      `INSERT INTO cashdesk_payments (till_id, payment_id, phase, open, card_number, receipt_sent, snapshot, view, created_at, updated_at)
       SELECT till_id, payment_id, phase, open, card_number, receipt_sent, snapshot, view, created_at, created_at
       FROM jsonb_to_recordset($1::jsonb) AS r(till_id text, payment_id text, phase text, open boolean, card_number text,
         receipt_sent boolean, snapshot jsonb, view jsonb, created_at timestamptz)
       ON CONFLICT (till_id, payment_id) DO NOTHING RETURNING till_id, payment_id`,
      [JSON.stringify([...first.values()].map((r) => ({
        till_id: r.tillId, payment_id: r.paymentId, phase: r.view.phase, open: isOpen(r), card_number: r.cardNumber ?? null,
        receipt_sent: r.receiptSent, snapshot: r.snapshot, view: r.view, created_at: r.createdAt.toISOString(),
      })))],
    );
    const inserted = new Set(rows.map((row) => rowKey({ tillId: row.till_id, paymentId: row.payment_id })));
    return records.map((r) => first.get(rowKey(r)) === r && inserted.has(rowKey(r)));
  }

  /** One statement for a batch of writes; of two writes of one payment, the later holds. */
  async #saveAll(records: PaymentRecord[]): Promise<void[]> {
    const last = new Map<string, PaymentRecord>();
    for (const r of records) last.set(rowKey(r), r);
    await this.db.query(
      `UPDATE cashdesk_payments AS p SET phase = r.phase, open = r.open, receipt_sent = r.receipt_sent, snapshot = r.snapshot, view = r.view,
         updated_at = r.updated_at
       FROM jsonb_to_recordset($1::jsonb) AS r(till_id text, payment_id text, phase text, open boolean, receipt_sent boolean,
         snapshot jsonb, view jsonb, updated_at timestamptz)
       WHERE p.till_id = r.till_id AND p.payment_id = r.payment_id`,
      [JSON.stringify([...last.values()].map((r) => ({
        till_id: r.tillId, payment_id: r.paymentId, phase: r.view.phase, open: isOpen(r), receipt_sent: r.receiptSent,
        snapshot: r.snapshot, view: r.view, updated_at: r.view.updatedAt,
      })))],
    );
    return records.map(() => undefined);
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
