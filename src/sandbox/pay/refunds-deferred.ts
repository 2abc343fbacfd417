import type { Queryable } from '../../db/index.js';
import { closeSession } from './cards.js';
import type { RefundView } from './dialect/index.js';
import { enqueueTransactionUpdated } from './events.js';
import type { Partner } from './partners.js';
import { refundSettings } from './refund-settings.js';
import { amountToRefund, refundHash, refundItemsJson, refundUnits, type RefundBody } from './refunds.js';
import { write, type PayRuntime } from './runtime.js';
import { invalidState } from './state-machine.js';
import { requireTransaction, transactionFromRow, type TransactionRow } from './transactions.js';
import { payRefusal } from './pay-refusals.js';

function viewOf(row: Record<string, unknown>, t: TransactionRow): RefundView {
  return {
    refundId: String(row.refund_id),
    transactionId: t.transactionId,
    amount: Number(row.amount),
    refundedAmount: t.refundedAmount,
    state: row.state as RefundView['state'],
  };
}

async function reservedBy(tx: Queryable, transactionId: string): Promise<number> {
  const { rows } = await tx.query<{ reserved: string | number | null }>(
    "SELECT SUM(amount) AS reserved FROM pay_refunds WHERE transaction_id = $1 AND state = 'pending'",
    [transactionId],
  );
  return Number(rows[0]?.reserved ?? 0);
}

/**
 * POST /refund where refunds settle later: the refund is recorded `pending`
 * with the outcome the refund settings give now (so a restart settles it the
 * same way), and its amount is held back from what remains to refund until
 * then. Idempotent by (transactionId, refundId) like the instant refund: the
 * same body answers the refund as it stands now (pending, succeeded or
 * failed), another body 409. Due refunds are settled first, so an answer never
 * lags the sweeper.
 */
export async function deferredRefund(rt: PayRuntime, partner: Partner, body: RefundBody): Promise<RefundView> {
  const request = refundUnits(body);
  const hash = refundHash(body, request);
  await settleDueRefunds(rt);
  return write(rt, async (tx) => {
    const t = await requireTransaction(tx, { transactionId: body.transactionId, partnerId: partner.partnerId }, true);
    const previous = await tx.query<Record<string, unknown>>(
      'SELECT * FROM pay_refunds WHERE transaction_id = $1 AND refund_id = $2',
      [t.transactionId, body.refundId],
    );
    if (previous.rows[0] !== undefined) {
      if (previous.rows[0].body_hash !== hash) {
        throw payRefusal('IDEMPOTENCY_CONFLICT', ['refundId: already used for another refund of this transaction']);
      }
      return viewOf(previous.rows[0], t);
    }
    if (t.status !== 'succeeded') throw invalidState(t, 'refunded (only a succeeded transaction can be)');
    const amount = await amountToRefund(tx, t, body, request, await reservedBy(tx, t.transactionId));
    const settings = await refundSettings(tx);
    const now = rt.ctx.clock();
    const view: RefundView = {
      refundId: body.refundId,
      transactionId: t.transactionId,
      amount,
      refundedAmount: t.refundedAmount,
      state: 'pending',
    };
    await tx.query(
      `INSERT INTO pay_refunds
         (transaction_id, refund_id, body_hash, amount, items, response, created_at, state, outcome, settles_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, 'pending', $8, $9)`,
      [
        t.transactionId,
        body.refundId,
        hash,
        amount,
        refundItemsJson(request),
        JSON.stringify(view),
        new Date(now),
        settings.mode === 'approve' ? 'succeeded' : 'failed',
        new Date(now + settings.delayMs),
      ],
    );
    return view;
  });
}

/**
 * Settles one pending refund: `succeeded` adds its amount to the
 * transaction's refundedAmount (a new version, so a `transaction.updated`
 * event) and closes the card session (document section 3, rule 2); `failed`
 * changes nothing else: the amount is again there to refund.
 */
async function settle(rt: PayRuntime, transactionId: string, refundId: string): Promise<void> {
  await write(rt, async (tx, effects) => {
    // The transaction's lock first, as /refund takes it: the two never settle and reserve the same amount at once.
    const t = await requireTransaction(tx, { transactionId }, true);
    const { rows } = await tx.query<{ amount: string | number; state: string }>(
      `UPDATE pay_refunds SET state = outcome
       WHERE transaction_id = $1 AND refund_id = $2 AND state = 'pending' AND settles_at <= $3 RETURNING amount, state`,
      [transactionId, refundId, new Date(rt.ctx.clock())],
    );
    if (rows[0]?.state !== 'succeeded') return;
    const now = new Date(rt.ctx.clock());
    const updated = await tx.query<Record<string, unknown>>(
      `UPDATE pay_transactions SET refunded_amount = refunded_amount + $2, version = version + 1, updated_at = $3
       WHERE transaction_id = $1 RETURNING *`,
      [transactionId, Number(rows[0].amount), now],
    );
    await closeSession(tx, t.partnerId, t.cardSession, now.getTime());
    effects.kick ||= await enqueueTransactionUpdated(tx, rt, transactionFromRow(updated.rows[0]!));
  });
}

/** Settles every pending refund whose time has come (one short transaction each), oldest first; answers how many. */
export async function settleDueRefunds(rt: PayRuntime, limit = 100): Promise<number> {
  const { rows } = await rt.ctx.db.query<{ transaction_id: string; refund_id: string }>(
    `SELECT transaction_id, refund_id FROM pay_refunds WHERE state = 'pending' AND settles_at <= $1
     ORDER BY settles_at, seq LIMIT $2`,
    [new Date(rt.ctx.clock()), limit],
  );
  for (const row of rows) await settle(rt, row.transaction_id, row.refund_id);
  return rows.length;
}
