import type { TransactionAnswer as TransactionState } from '../contracts/pay/answers.js';
import { follow } from './session-refund.js';
import type { SessionCore } from './session-core.js';
import type { PaymentSessionSnapshot } from './session-types.js';

/** What must be kept to carry the session on after a restart (`restore` option). */
export function snapshot(s: SessionCore): PaymentSessionSnapshot {
  const current = s.current;
  return {
    phase: s.phase,
    stage: s.stage,
    requestId: s.requestId,
    cardSession: s.cardSession,
    basket: s.basket,
    ...(s.providerId ? { providerId: s.providerId } : {}),
    providers: s.providers,
    walletPayIsDefault: s.walletPayIsDefault,
    ...(current ? { transaction: s.ledger.get(current.transactionId) ?? current } : {}),
    ...(s.refundId ? { refundId: s.refundId } : {}),
    left: s.ledger.leftBehind(),
    leftStates: s.ledger.leftBehind().flatMap((id) => s.ledger.get(id) ?? []),
    refunds: s.ledger.refunds.all(),
    ...(s.phase === 'unknown' && s.unknownReason ? { unknownReason: s.unknownReason } : {}),
  };
}

/** Comes back from a snapshot where no call is in flight (see PaymentSessionSnapshot). */
export function restore(s: SessionCore, snap: PaymentSessionSnapshot): void {
  s.restoreState(snap);
  for (const transactionId of snap.left) s.ledger.leave(transactionId);
  for (const state of snap.leftStates ?? []) s.ledger.record(state);
  for (const refund of snap.refunds ?? []) s.ledger.refunds.set(refund);
  if (snap.transaction && 'statusClass' in snap.transaction) s.ledger.record(snap.transaction);
  // A left-behind or cancelled payment may still be answered by the bank: keep watching it.
  for (const transactionId of snap.left) s.watcher.watch(transactionId);
  // A refund answered pending before the restart is followed again.
  for (const refund of snap.refunds ?? []) if (refund.state === 'pending') follow(s, refund.refundId);
  const status = s.transaction?.status ?? s.current?.status;
  // A cancelled one in another service's words: the session left it (it cancelled it itself).
  const cancelled = status === 'cancelled' || (s.current !== undefined && s.ledger.isLeft(s.current.transactionId));
  if (s.current && (s.awaitingResult || (s.phase === 'unsuccessful' && cancelled))) {
    s.watcher.watch(s.current.transactionId);
  }
}

/** Asks /status for the current transaction now; the answer is handled like any other state. */
export async function refresh(s: SessionCore): Promise<TransactionState | undefined> {
  if (!s.current) return undefined;
  const state = await s.o.client.status({ transactionId: s.current.transactionId });
  s.observe(state);
  return s.transaction;
}
