import { lineAmount, purchaseAmountExact, type Item, type RefundResponse } from '../../contracts/pay/index.js';
import type { Queryable } from '../../db/index.js';
import { closeSession } from './cards.js';
import { bodyHash } from './checkout.js';
import { enqueueTransactionUpdated } from './events.js';
import type { Partner } from './partners.js';
import { write, type PayRuntime } from './runtime.js';
import { invalidState } from './state-machine.js';
import { requireTransaction, transactionFromRow, type TransactionRow } from './transactions.js';
import { payRefusal } from './pay-refusals.js';

/** A validated refund body. */
export interface RefundBody {
  transactionId: string;
  refundId: string;
  amount?: number | undefined;
  items?: Array<{ article: string; quantity: number }> | undefined;
}

/** Units of each article bought (items of one article summed: document 2.4 rule 2 allows either form). */
export function unitsByArticle(items: readonly Pick<Item, 'article' | 'quantity'>[]): Map<string, number> {
  const units = new Map<string, number>();
  for (const item of items) units.set(item.article, (units.get(item.article) ?? 0) + item.quantity);
  return units;
}

/**
 * The amount of an items refund: the articles' value at their prices (units
 * taken from the article's lines in basket order, after the units refunded
 * before), with the transaction's discount spread pro rata; the refund that
 * returns the last unit returns exactly what remains.
 */
export function itemsRefundAmount(
  t: TransactionRow,
  refundedUnits: Map<string, number>,
  request: Map<string, number>,
): number {
  let value = 0n;
  for (const [article, wanted] of request) {
    let skip = refundedUnits.get(article) ?? 0;
    let left = wanted;
    for (const line of t.items) {
      if (line.article !== article || left === 0) continue;
      const available = Math.max(0, line.quantity - skip);
      skip = Math.max(0, skip - line.quantity);
      const take = Math.min(available, left);
      value += lineAmount({ quantity: take, price: line.price });
      left -= take;
    }
  }
  const bought = unitsByArticle(t.items);
  const allReturned = [...bought].every(
    ([article, units]) => (refundedUnits.get(article) ?? 0) + (request.get(article) ?? 0) === units,
  );
  if (allReturned) return t.totalAmount - t.refundedAmount;
  const purchase = purchaseAmountExact(t.items);
  return purchase === 0n ? 0 : Number((value * BigInt(t.totalAmount)) / purchase);
}

async function refundedUnitsOf(tx: Queryable, transactionId: string): Promise<Map<string, number>> {
  // A refund that failed gave nothing back: its units are still the customer's to return.
  const { rows } = await tx.query<{ items: Array<{ article: string; quantity: number }> | null }>(
    "SELECT items FROM pay_refunds WHERE transaction_id = $1 AND state <> 'failed'",
    [transactionId],
  );
  const units = new Map<string, number>();
  for (const row of rows)
    for (const i of row.items ?? []) units.set(i.article, (units.get(i.article) ?? 0) + i.quantity);
  return units;
}

/** A refund request's units per article (undefined for a refund by amount or of what remains). */
export function refundUnits(body: RefundBody): Map<string, number> | undefined {
  return body.items === undefined ? undefined : unitsByArticle(body.items);
}

/** What makes two requests with one refundId the same refund: the amount asked, or the units per article. */
export function refundHash(body: RefundBody, request: Map<string, number> | undefined): string {
  const items = request === undefined ? null : [...request].sort(([a], [b]) => (a < b ? -1 : 1));
  return bodyHash({ amount: body.amount ?? null, items });
}

/** The stored units of an items refund, or null. */
export function refundItemsJson(request: Map<string, number> | undefined): string | null {
  if (request === undefined) return null;
  return JSON.stringify([...request].map(([article, quantity]) => ({ article, quantity })));
}

/**
 * What a refund request gives back: by items (never more units per article
 * than bought minus refunded, else 422), by amount, or what remains; more than
 * remains is 422. `reserved`: refunds still pending, which what remains excludes.
 */
export async function amountToRefund(
  tx: Queryable,
  t: TransactionRow,
  body: RefundBody,
  request: Map<string, number> | undefined,
  reserved = 0,
): Promise<number> {
  const remaining = t.totalAmount - t.refundedAmount - reserved;
  let amount: number;
  if (request !== undefined) {
    const bought = unitsByArticle(t.items);
    const refunded = await refundedUnitsOf(tx, t.transactionId);
    const errors: string[] = [];
    for (const [article, units] of request) {
      const left = (bought.get(article) ?? 0) - (refunded.get(article) ?? 0);
      if (!bought.has(article)) errors.push(`items: article ${JSON.stringify(article)} was not bought`);
      else if (units > left) {
        const name = JSON.stringify(article);
        errors.push(`items: article ${name}: ${units} to refund, ${left} left of ${bought.get(article)} bought`);
      }
    }
    if (errors.length > 0) throw payRefusal('AMOUNT_MISMATCH', errors);
    amount = itemsRefundAmount({ ...t, refundedAmount: t.refundedAmount + reserved }, refunded, request);
  } else {
    amount = body.amount ?? remaining;
  }
  if (remaining === 0) throw payRefusal('AMOUNT_MISMATCH', ['amount: nothing left to refund']);
  if (amount > remaining) {
    throw payRefusal('AMOUNT_MISMATCH', [`amount: ${amount} is more than the ${remaining} left to refund`]);
  }
  return amount;
}

/**
 * POST /refund: idempotent by (transactionId, refundId): the same body answers
 * the stored response, another body 409. Only a `succeeded` transaction; by
 * amount, by items, or neither: what remains (see {@link amountToRefund}). The card
 * session is closed afterwards (document section 3, rule 2).
 */
export async function refund(rt: PayRuntime, partner: Partner, body: RefundBody): Promise<string> {
  const request = refundUnits(body);
  const hash = refundHash(body, request);
  return write(rt, async (tx, effects) => {
    const t = await requireTransaction(tx, { transactionId: body.transactionId, partnerId: partner.partnerId }, true);
    const previous = await tx.query<{ body_hash: string; response: string }>(
      'SELECT body_hash, response FROM pay_refunds WHERE transaction_id = $1 AND refund_id = $2',
      [t.transactionId, body.refundId],
    );
    if (previous.rows[0] !== undefined) {
      if (previous.rows[0].body_hash !== hash)
        throw payRefusal('IDEMPOTENCY_CONFLICT', ['refundId: already used for another refund of this transaction']);
      return previous.rows[0].response;
    }
    if (t.status !== 'succeeded') throw invalidState(t, 'refunded (only a succeeded transaction can be)');
    const amount = await amountToRefund(tx, t, body, request);
    const now = new Date(rt.ctx.clock());
    const { rows } = await tx.query<Record<string, unknown>>(
      `UPDATE pay_transactions SET refunded_amount = refunded_amount + $2, version = version + 1, updated_at = $3
       WHERE transaction_id = $1 RETURNING *`,
      [t.transactionId, amount, now],
    );
    const updated = transactionFromRow(rows[0]!);
    const response: RefundResponse = {
      refundId: body.refundId,
      transactionId: t.transactionId,
      amount,
      refundedAmount: updated.refundedAmount,
      status: 'succeeded',
    };
    const text = JSON.stringify(response);
    await tx.query(
      `INSERT INTO pay_refunds (transaction_id, refund_id, body_hash, amount, items, response, created_at) ` +
        `VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7)`,
      [t.transactionId, body.refundId, hash, amount, refundItemsJson(request), text, now],
    );
    await closeSession(tx, t.partnerId, t.cardSession, now.getTime());
    effects.kick ||= await enqueueTransactionUpdated(tx, rt, updated);
    return text;
  });
}
