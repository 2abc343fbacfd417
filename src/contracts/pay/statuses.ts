import { z } from 'zod';

/**
 * Transaction statuses (the kit's: the interface document, section 3, names
 * only `rejected`), lower case as the document writes `rejected`, in the
 * document's three classes.
 */
export const TransactionStatus = z
  .enum(['created', 'processing', 'succeeded', 'rejected', 'cancelled', 'expired'])
  .meta({ id: 'TransactionStatus' });
export type TransactionStatus = z.infer<typeof TransactionStatus>;

export const StatusClass = z.enum(['transit', 'successful', 'unsuccessful']).meta({ id: 'StatusClass' });
export type StatusClass = z.infer<typeof StatusClass>;

/** Why a transaction was rejected. */
export const RejectReason = z.enum(['INSUFFICIENT_FUNDS', 'DECLINED', 'TECHNICAL']).meta({ id: 'RejectReason' });
export type RejectReason = z.infer<typeof RejectReason>;

const CLASS: Record<TransactionStatus, StatusClass> = {
  created: 'transit',
  processing: 'transit',
  succeeded: 'successful',
  rejected: 'unsuccessful',
  cancelled: 'unsuccessful',
  expired: 'unsuccessful',
};

/** The class of a status. */
export function statusClass(status: TransactionStatus): StatusClass {
  return CLASS[status];
}

/**
 * Allowed moves. `cancelled` may still become `succeeded` or `rejected`: the
 * bank may have received the payment before the cancellation (document
 * section 7, last line), and its answer wins.
 */
export const TRANSITIONS: Readonly<Record<TransactionStatus, readonly TransactionStatus[]>> = {
  created: ['processing', 'cancelled', 'expired', 'rejected'],
  processing: ['succeeded', 'rejected', 'cancelled'],
  cancelled: ['succeeded', 'rejected'],
  succeeded: [],
  rejected: [],
  expired: [],
};

/** Whether `from` may move to `to`. */
export function canMove(from: TransactionStatus, to: TransactionStatus): boolean {
  return TRANSITIONS[from].includes(to);
}
