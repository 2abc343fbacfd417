import type { TransactionRef } from '../contracts/pay/bodies.js';
import type { SessionCore } from './session-core.js';
import type { SessionTransaction } from './session-types.js';

/** The session's transactions, oldest first: those it left behind (replaced or cancelled), then the current one. */
export function sessionTransactionIds(s: SessionCore): TransactionRef[] {
  const ids = s.ledger.leftBehind();
  const current = s.current?.transactionId;
  if (current !== undefined && !ids.some((id) => String(id) === String(current))) ids.push(current);
  return ids;
}

/** What a transaction of the session was for: its state's totalAmount, or the basket's for the current one. */
export function totalOf(s: SessionCore, transactionId: TransactionRef): number | undefined {
  const total = s.ledger.get(transactionId)?.totalAmount;
  if (total !== undefined) return total;
  return String(s.current?.transactionId) === String(transactionId) ? s.totalAmount : undefined;
}

/** Every transaction of the session with its last known status and refunded amount. */
export function sessionTransactions(s: SessionCore): SessionTransaction[] {
  return sessionTransactionIds(s).flatMap((transactionId) => {
    const current = String(s.current?.transactionId) === String(transactionId);
    const state = s.ledger.get(transactionId) ?? (current ? s.current : undefined);
    if (state === undefined) return [];
    const statusClass = 'statusClass' in state ? state.statusClass : 'transit';
    const totalAmount = totalOf(s, transactionId);
    return [
      {
        transactionId,
        status: state.status,
        statusClass,
        current,
        refundedAmount: ('refundedAmount' in state ? state.refundedAmount : undefined) ?? 0,
        ...(totalAmount === undefined ? {} : { totalAmount }),
      },
    ];
  });
}
