import { canMove, type RejectReason, type TransactionStatus } from '../../contracts/pay/index.js';
import type { Queryable } from '../../db/index.js';
import { enqueueTransactionUpdated } from './events.js';
import type { Moved, PayRuntime } from './runtime.js';
import { transactionFromRow, type TransactionRow } from './transactions.js';
import { payRefusal } from './pay-refusals.js';

/** Columns a move may set besides status, reason, version and updated_at. */
export interface MoveFields {
  reason?: RejectReason | null;
  confirmed_at?: Date;
  cancelled_by?: 'merchant' | 'customer' | 'superseded';
  bank_outcome?: TransactionRow['bank']['outcome'];
  bank_delay_ms?: number;
  bank_receive_ms?: number;
  bank_received_at?: Date | null;
  bank_answered_at?: Date;
}

/** A successful move and whether an event waits in the outbox. */

/** 409 INVALID_STATE for a move the rules of `TRANSITIONS` forbid. */
export function invalidState(t: Pick<TransactionRow, 'status'>, action: string) {
  return payRefusal('INVALID_STATE', [`status: the transaction is ${t.status}; it cannot be ${action}`]);
}

const ALLOWED_COLUMNS = new Set([
  'reason',
  'confirmed_at',
  'cancelled_by',
  'bank_outcome',
  'bank_delay_ms',
  'bank_receive_ms',
  'bank_received_at',
  'bank_answered_at',
]);

/**
 * Moves a transaction from its current status to `to` (the kit's statuses,
 * `TRANSITIONS`), bumps its version and enqueues the `transaction.updated`
 * event, all in `tx`. The UPDATE is conditional on the status read, so a
 * concurrent move can never be overwritten; an illegal move throws 409 INVALID_STATE.
 */
export async function move(
  tx: Queryable,
  rt: PayRuntime,
  t: TransactionRow,
  to: TransactionStatus,
  action: string,
  fields: MoveFields = {},
): Promise<Moved> {
  if (!canMove(t.status, to)) throw invalidState(t, action);
  const sets = ['status = $3', 'version = version + 1', 'updated_at = $4'];
  const params: unknown[] = [t.transactionId, t.status, to, new Date(rt.ctx.clock())];
  const withReason: MoveFields = { reason: to === 'rejected' ? (fields.reason ?? 'DECLINED') : null, ...fields };
  if (to !== 'rejected') withReason.reason = null;
  for (const [column, value] of Object.entries(withReason)) {
    if (!ALLOWED_COLUMNS.has(column) || value === undefined) continue;
    params.push(value);
    sets.push(`${column} = $${params.length}`);
  }
  const { rows } = await tx.query<Record<string, unknown>>(
    `UPDATE pay_transactions SET ${sets.join(', ')} WHERE transaction_id = $1 AND status = $2 RETURNING *`,
    params,
  );
  if (rows[0] === undefined) throw invalidState(t, action);
  const transaction = transactionFromRow(rows[0]);
  return { transaction, enqueued: await enqueueTransactionUpdated(tx, rt, transaction) };
}
