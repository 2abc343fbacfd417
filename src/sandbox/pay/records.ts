import type { Queryable } from '../../db/index.js';
import type { Invoice, TransactionRecord } from './simulator-schemas.js';
import { transactionFromRow, transactionState, type TransactionRow } from './transactions.js';

const iso = (d: Date | null) => d?.toISOString() ?? null;

async function offersOf(db: Queryable, partnerId: string, cardSession: string): Promise<Invoice['offers']> {
  const { rows } = await db.query<{ body: { offers?: Invoice['offers'] } }>(
    'SELECT body FROM pay_tasks WHERE partner_id = $1 AND card_session = $2 ORDER BY created_at DESC LIMIT 1',
    [partnerId, cardSession],
  );
  return rows[0]?.body.offers ?? [];
}

function invoiceOf(t: TransactionRow, offers: Invoice['offers']): Invoice {
  return {
    ...transactionState(t),
    cardSession: t.cardSession,
    items: t.items,
    discountAmount: t.discountAmount,
    providerId: t.providerId,
    invoiceExpiresAt: t.invoiceExpiresAt.toISOString(),
    offers,
  };
}

/**
 * Invoices waiting for the customer of a card, oldest first, with the offers of the latest task of their card session.
 */
export async function pendingInvoices(db: Queryable, partnerId: string, cardNumber: string): Promise<Invoice[]> {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT * FROM pay_transactions WHERE partner_id = $1 AND card_number = $2 AND status = 'created' ORDER BY ` +
      `created_at, transaction_id`,
    [partnerId, cardNumber],
  );
  const invoices: Invoice[] = [];
  for (const row of rows) {
    const t = transactionFromRow(row);
    invoices.push(invoiceOf(t, await offersOf(db, partnerId, t.cardSession)));
  }
  return invoices;
}

/** A transaction's full record for inspection: the state, items, bank progress, refunds and receipts. */
export async function transactionRecord(db: Queryable, t: TransactionRow): Promise<TransactionRecord> {
  const refunds = await db.query<Record<string, unknown>>(
    'SELECT refund_id, amount, items, created_at FROM pay_refunds WHERE transaction_id = $1 ORDER BY seq',
    [t.transactionId],
  );
  const receipts = await db.query<Record<string, unknown>>(
    'SELECT receipt, received_at FROM pay_receipts WHERE transaction_id = $1 ORDER BY seq',
    [t.transactionId],
  );
  return {
    ...transactionState(t),
    partnerId: t.partnerId,
    cardSession: t.cardSession,
    cardNumber: t.cardNumber,
    providerId: t.providerId,
    items: t.items,
    discountAmount: t.discountAmount,
    version: t.version,
    createdAt: t.createdAt.toISOString(),
    invoiceExpiresAt: t.invoiceExpiresAt.toISOString(),
    confirmedAt: iso(t.confirmedAt),
    cancelledBy: t.cancelledBy,
    bank: { ...t.bank, receivedAt: iso(t.bank.receivedAt), answeredAt: iso(t.bank.answeredAt) },
    refunds: refunds.rows.map((r) => ({
      refundId: String(r.refund_id),
      amount: Number(r.amount),
      items: (r.items as Array<{ article: string; quantity: number }> | null) ?? null,
      createdAt: (r.created_at as Date).toISOString(),
    })),
    receipts: receipts.rows.map((r) => ({
      receipt: r.receipt as TransactionRecord['receipts'][number]['receipt'],
      receivedAt: (r.received_at as Date).toISOString(),
    })),
  };
}

/**
 * A card's latest transactions (newest first, at most `limit`), each with its refunds and receipts: the app's history.
 */
export async function cardTransactions(
  db: Queryable,
  partnerId: string,
  cardNumber: string,
  limit: number,
): Promise<TransactionRecord[]> {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT * FROM pay_transactions WHERE partner_id = $1 AND card_number = $2 ORDER BY created_at DESC, ` +
      `transaction_id LIMIT $3`,
    [partnerId, cardNumber, limit],
  );
  const records: TransactionRecord[] = [];
  for (const row of rows) records.push(await transactionRecord(db, transactionFromRow(row)));
  return records;
}
