import type { PaymentView, SessionUpdate } from '../../contracts/cashdesk-payments.js';
import type { TransactionAnswer } from '../../contracts/pay/answers.js';
import type { Database } from '../../db/index.js';
import type { PaymentSessionSnapshot } from '../../pay/session-types.js';
import type { HintBody } from '../payments/hints.js';
import { isOpen, type PaymentRecord } from '../payments/record.js';
import { PaymentStore } from '../payments/store.js';

/** Where heals are written and told. */
export interface HealTarget {
  db: Database;
  /** The LISTEN/NOTIFY channel of the payments (PostgreSQL): instances with the till connected tell it. */
  channel?: string;
}

/** The name heals write as `from` in their hints: no instance has it, so every instance reads them. */
const HEALER = 'reconcile';

/** The payment as paid by `state`: its session snapshot and its till's view. */
function paidRecord(record: PaymentRecord, state: TransactionAnswer, at: string): PaymentRecord {
  const snapshot: PaymentSessionSnapshot = {
    ...record.snapshot,
    phase: 'succeeded',
    stage: 'checkout',
    transaction: state,
  };
  delete snapshot.unknownReason;
  const { reason: _reason, ...view } = record.view;
  const others = (view.transactions ?? []).filter((t) => String(t.transactionId) !== String(state.transactionId));
  const paid: PaymentView = {
    ...view,
    phase: 'succeeded',
    transactionId: state.transactionId,
    status: state.status,
    ...(state.statusClass ? { statusClass: state.statusClass } : {}),
    transactions: [
      ...others.map((t) => ({ ...t, current: false })),
      {
        transactionId: state.transactionId,
        status: state.status,
        ...(state.statusClass ? { statusClass: state.statusClass } : {}),
        current: true,
        refundedAmount: state.refundedAmount ?? 0,
        totalAmount: state.totalAmount ?? view.totalAmount,
      },
    ],
    updatedAt: at,
  };
  return { ...record, snapshot, view: paid };
}

/**
 * Records that the service took the money for a payment the kit never knew
 * paid (`paid_untold`); no money moves. A payment no live instance holds is
 * written here: phase `succeeded`, one event told to its till through the
 * event rows and an `events` hint. A payment an instance holds gets the state
 * as a webhook would give it (stored, then a `state` hint), and that
 * instance moves it on and tells the till.
 */
export async function healPaidUntold(
  target: HealTarget,
  record: PaymentRecord,
  state: TransactionAnswer,
): Promise<void> {
  const at = new Date().toISOString();
  const paid = paidRecord(record, state, at);
  const update: SessionUpdate = {
    paymentId: record.paymentId,
    phase: 'succeeded',
    status: state.status,
    ...(state.statusClass ? { statusClass: state.statusClass } : {}),
    transactionId: state.transactionId,
  };
  const seq = await writeUnheld(target, paid, update, at);
  if (seq !== undefined) {
    await notify(target, { kind: 'events', tillId: record.tillId, paymentId: record.paymentId, seq });
    return;
  }
  // Held by a live instance: given to it as its webhook would be.
  await new PaymentStore(target.db, { owner: HEALER, ttlMs: 1 }).saveState(state);
  await notify(target, { kind: 'state', transactionId: String(state.transactionId) });
}

/**
 * Writes a healed payment no live instance holds (no lease, or a lapsed one) with one event for its till, in one
 * statement; the epoch moves on so an owner that comes back cannot write over it. Undefined when one holds it.
 */
export async function writeUnheld(
  target: HealTarget,
  healed: PaymentRecord,
  update: SessionUpdate,
  at: string,
): Promise<number | undefined> {
  const { rows } = await target.db.query<{ seq: string | number }>(
    `WITH u AS (
       UPDATE cashdesk_payments SET phase = $3, open = $4, active = FALSE, snapshot = $5::jsonb,
         view = $6::jsonb, updated_at = $7, seq = seq + 1, epoch = epoch + 1, owner = NULL, lease_until = NULL,
         wanted = FALSE
       WHERE till_id = $1 AND payment_id = $2 AND (owner IS NULL OR lease_until IS NULL OR lease_until < now())
       RETURNING till_id, payment_id, seq
     ), e AS (
       INSERT INTO cashdesk_payment_events (till_id, payment_id, seq, body)
       SELECT till_id, payment_id, seq, $8::jsonb || jsonb_build_object('seq', seq) FROM u
     )
     SELECT seq FROM u`,
    [
      healed.tillId,
      healed.paymentId,
      healed.view.phase,
      isOpen(healed),
      JSON.stringify(healed.snapshot),
      JSON.stringify(healed.view),
      at,
      JSON.stringify(update),
    ],
  );
  return rows[0] === undefined ? undefined : Number(rows[0].seq);
}

/** Tells the instances a heal was written (PostgreSQL's channel; PGlite has one process and no channel). */
export async function notify(target: HealTarget, hint: HintBody): Promise<void> {
  if (target.channel === undefined || target.db.kind !== 'postgres') return;
  await target.db.query('SELECT pg_notify($1, $2)', [target.channel, JSON.stringify({ ...hint, from: HEALER })]);
}
