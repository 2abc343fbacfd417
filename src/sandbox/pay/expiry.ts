import type { Queryable } from '../../db/index.js';
import type { Effects, PayRuntime } from './runtime.js';
import { write } from './runtime.js';
import { move } from './state-machine.js';
import { findTransaction, type TransactionRow } from './transactions.js';

/** Whether an invoice has waited for the customer longer than allowed. */
export function invoiceDue(t: TransactionRow, now: number): boolean {
  return t.status === 'created' && t.invoiceExpiresAt.getTime() <= now;
}

/**
 * Applies an invoice's expiry when it is due, in `tx` (the row must be locked):
 * every read and action sees the same status the sweeper would set.
 */
export async function expireIfDue(
  tx: Queryable,
  rt: PayRuntime,
  t: TransactionRow,
  effects: Effects,
): Promise<TransactionRow> {
  if (!invoiceDue(t, rt.ctx.clock())) return t;
  return effects.moved(await move(tx, rt, t, 'expired', 'expired')).transaction;
}

/**
 * Moves every due invoice to `expired` (one short transaction each, so the
 * sweeper never holds many locks) and forgets token ids past their life.
 * Returns how many invoices expired.
 */
export async function sweep(rt: PayRuntime, limit = 100): Promise<number> {
  const now = new Date(rt.ctx.clock());
  await rt.ctx.db.query('DELETE FROM pay_token_ids WHERE expires_at < $1', [now]);
  const { rows } = await rt.ctx.db.query<{ transaction_id: string }>(
    `SELECT transaction_id FROM pay_transactions WHERE status = 'created' AND invoice_expires_at <= $1 ORDER BY ` +
      `invoice_expires_at LIMIT $2`,
    [now, limit],
  );
  let expired = 0;
  for (const { transaction_id: transactionId } of rows) {
    await write(rt, async (tx, effects) => {
      const t = await findTransaction(tx, { transactionId }, true);
      if (t !== undefined && invoiceDue(t, rt.ctx.clock())) {
        await expireIfDue(tx, rt, t, effects);
        expired++;
      }
    });
  }
  return expired;
}
