import type { Item, RejectReason, TransactionState, TransactionStatus } from '../../contracts/pay/index.js';
import { statusClass } from '../../contracts/pay/index.js';
import type { Queryable } from '../../db/index.js';
import { payRefusal } from './pay-refusals.js';

/** A stored transaction, as the sandbox works with it. */
export interface TransactionRow {
  transactionId: string;
  partnerId: string;
  requestId: string;
  /**
   * The `X-Request-Id` of the /checkout that created it (its webhooks carry it); null in rows older than migration 005.
   */
  httpRequestId: string | null;
  cardSession: string;
  cardNumber: string;
  bodyHash: string;
  response: string;
  providerId: string | null;
  items: Item[];
  discountAmount: number;
  totalAmount: number;
  refundedAmount: number;
  status: TransactionStatus;
  reason: RejectReason | null;
  version: number;
  invoiceExpiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
  confirmedAt: Date | null;
  cancelledBy: 'merchant' | 'customer' | 'superseded' | null;
  bank: {
    outcome: 'succeeded' | 'INSUFFICIENT_FUNDS' | 'DECLINED' | 'TECHNICAL' | null;
    delayMs: number | null;
    receiveMs: number | null;
    receivedAt: Date | null;
    answeredAt: Date | null;
  };
}

/** Maps a `pay_transactions` row. */
export function transactionFromRow(row: Record<string, unknown>): TransactionRow {
  const date = (v: unknown) => (v as Date | null) ?? null;
  return {
    transactionId: String(row.transaction_id),
    partnerId: String(row.partner_id),
    requestId: String(row.request_id),
    httpRequestId: (row.http_request_id as string | null) ?? null,
    cardSession: String(row.card_session),
    cardNumber: String(row.card_number),
    bodyHash: String(row.body_hash),
    response: String(row.response),
    providerId: (row.provider_id as string | null) ?? null,
    items: row.items as Item[],
    discountAmount: Number(row.discount_amount),
    totalAmount: Number(row.total_amount),
    refundedAmount: Number(row.refunded_amount),
    status: row.status as TransactionStatus,
    reason: (row.reason as RejectReason | null) ?? null,
    version: Number(row.version),
    invoiceExpiresAt: row.invoice_expires_at as Date,
    createdAt: row.created_at as Date,
    updatedAt: row.updated_at as Date,
    confirmedAt: date(row.confirmed_at),
    cancelledBy: (row.cancelled_by as TransactionRow['cancelledBy']) ?? null,
    bank: {
      outcome: (row.bank_outcome as TransactionRow['bank']['outcome']) ?? null,
      delayMs: row.bank_delay_ms == null ? null : Number(row.bank_delay_ms),
      receiveMs: row.bank_receive_ms == null ? null : Number(row.bank_receive_ms),
      receivedAt: date(row.bank_received_at),
      answeredAt: date(row.bank_answered_at),
    },
  };
}

/** The API's view of a transaction (`/status`, `/cancel`, webhook events). */
export function transactionState(t: TransactionRow): TransactionState {
  return {
    transactionId: t.transactionId,
    requestId: t.requestId,
    status: t.status,
    statusClass: statusClass(t.status),
    ...(t.reason === null ? {} : { reason: t.reason }),
    totalAmount: t.totalAmount,
    refundedAmount: t.refundedAmount,
    updatedAt: t.updatedAt.toISOString(),
  };
}

/** Which transaction a call names. `partnerId` undefined: any partner's (an unsigned `/status`). */
export type TransactionKey =
  | { transactionId: string; partnerId?: string }
  | { requestId: string; cardSession: string; partnerId?: string };

/** Reads a transaction (locked for the rest of `tx` with `lock`); undefined when there is none. */
export async function findTransaction(
  tx: Queryable,
  key: TransactionKey,
  lock = false,
): Promise<TransactionRow | undefined> {
  const forUpdate = lock ? ' FOR UPDATE' : '';
  const partner = key.partnerId ?? null;
  const { rows } =
    'transactionId' in key
      ? await tx.query<Record<string, unknown>>(
          `SELECT * FROM pay_transactions WHERE transaction_id = $1 AND ($2::text IS NULL OR partner_id = ` +
            `$2)${forUpdate}`,
          [key.transactionId, partner],
        )
      : await tx.query<Record<string, unknown>>(
          `SELECT * FROM pay_transactions WHERE request_id = $1 AND card_session = $2 AND ($3::text IS NULL OR
        partner_id = $3)
       ORDER BY created_at LIMIT 2${forUpdate}`,
          [key.requestId, key.cardSession, partner],
        );
  // Without a partner, requestId + cardSession could in theory name two partners' transactions: refuse to guess.
  return rows.length === 1 ? transactionFromRow(rows[0]!) : undefined;
}

/** Like {@link findTransaction}, or 404 NOT_FOUND. */
export async function requireTransaction(tx: Queryable, key: TransactionKey, lock = false): Promise<TransactionRow> {
  const found = await findTransaction(tx, key, lock);
  if (found === undefined) {
    throw payRefusal('NOT_FOUND', [
      'transactionId' in key
        ? 'transactionId: no such transaction'
        : 'requestId: no such checkout for this cardSession',
    ]);
  }
  return found;
}
