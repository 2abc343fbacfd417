import type { TransactionStatus } from '../../../contracts/pay/index.js';
import type { TransactionRow } from '../transactions.js';
import type { RefundState } from './types.js';

/**
 * The foreign dialect's words: a Pay service that follows the interface
 * document's paths and field names but words the rest its own way, as the
 * document leaves statuses, error codes and bodies "not shown".
 */

/** Status words a client of this service is told about (what its documentation would list). */
export const FOREIGN_STATUSES = {
  created: 'NEW',
  processing: 'IN_PROGRESS',
  succeeded: 'PAID',
  rejected: 'DECLINED',
  cancelled: 'CANCELED',
  expired: 'EXPIRED',
} as const satisfies Record<TransactionStatus, string>;

/**
 * The word the service sends without having documented it: while the bank
 * holds a confirmed payment, for a while before its result. Clients meet a
 * word they were never told, as they will with a real service.
 */
export const UNDOCUMENTED_STATUS = 'ON_HOLD';

/** Whether the bank has the payment and has not answered yet: its result is still to come. */
function bankHolds(t: TransactionRow): boolean {
  return t.bank.outcome !== null && t.bank.receivedAt !== null && t.bank.answeredAt === null;
}

/**
 * A transaction's status word. A cancel that came once the bank had the
 * payment is answered with the payment still `IN_PROGRESS`: the bank's result
 * comes later and wins (document section 7, last line), so this service does
 * not call it cancelled before it knows.
 */
export function foreignStatus(t: TransactionRow): string {
  if (t.status === 'processing' && bankHolds(t)) return UNDOCUMENTED_STATUS;
  if (t.status === 'cancelled' && bankHolds(t)) return FOREIGN_STATUSES.processing;
  return FOREIGN_STATUSES[t.status];
}

/** Refund states as this service words them. */
export const FOREIGN_REFUND_STATES = {
  pending: 'PENDING',
  succeeded: 'SUCCEEDED',
  failed: 'FAILED',
} as const satisfies Record<RefundState, string>;

/** A refusal in this service's words: its HTTP status and `code`. */
export interface ForeignError {
  httpStatus: number;
  code: string;
}

/**
 * The kit's refusal codes (openapi/pay.json) in this service's words. A
 * card session it will not take is gone for good here: 410 SESSION_EXPIRED,
 * whatever the reason (unknown, expired, closed, blocked after a bad token).
 */
export const FOREIGN_ERRORS: Readonly<Record<string, ForeignError>> = {
  BAD_REQUEST: { httpStatus: 400, code: 'VALIDATION_ERROR' },
  TOKEN_INVALID: { httpStatus: 401, code: 'BAD_SIGNATURE' },
  NOT_FOUND: { httpStatus: 404, code: 'TRANSACTION_NOT_FOUND' },
  CARD_SESSION_INVALID: { httpStatus: 410, code: 'SESSION_EXPIRED' },
  IDEMPOTENCY_CONFLICT: { httpStatus: 409, code: 'DUPLICATE_REQUEST' },
  INVALID_STATE: { httpStatus: 409, code: 'OPERATION_NOT_ALLOWED' },
  INVOICE_OPEN: { httpStatus: 409, code: 'PAYMENT_IN_PROGRESS' },
  AMOUNT_MISMATCH: { httpStatus: 422, code: 'INVALID_AMOUNT' },
  UNSUPPORTED_MEDIA_TYPE: { httpStatus: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
  TOO_MANY_REQUESTS: { httpStatus: 429, code: 'RATE_LIMITED' },
  UNAVAILABLE: { httpStatus: 503, code: 'SERVICE_UNAVAILABLE' },
};
