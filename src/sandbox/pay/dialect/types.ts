import type { MiddlewareHandler } from 'hono';
import type { ReceiptResponse } from '../../../contracts/pay/index.js';
import type { TransactionRow } from '../transactions.js';

/** The dialects the sandbox's Pay API speaks. */
export type PayDialectName = 'kit' | 'foreign';

/** Where a refund stands: at once `succeeded` in the kit's dialect; `pending` first where refunds settle later. */
export type RefundState = 'pending' | 'succeeded' | 'failed';

/** A refund as the sandbox keeps it, before a dialect words it. */
export interface RefundView {
  refundId: string;
  transactionId: string;
  amount: number;
  /** The transaction's refunded amount now (a pending refund is not in it yet). */
  refundedAmount: number;
  state: RefundState;
}

/**
 * How the Pay API words what the sandbox does: status names, transaction ids,
 * error bodies. The state machine, the bank and the stores speak only the
 * kit's words (openapi/pay.json); a dialect translates at the HTTP edge
 * (the answers of the Pay routes and the `transaction.updated` payloads), so
 * a second wording never leaks into them.
 */
export interface PayDialect {
  readonly name: PayDialectName;
  /** Whether a refund is answered settled (`instant`) or `pending`, settled later by the sandbox's refund settings. */
  readonly refunds: 'instant' | 'deferred';
  /** A new transaction id, in a form the dialect can write (the store keeps it as text). */
  newTransactionId(): string;
  /** The stored id a request's `transactionId` names, as the dialect writes it (undefined when it is none). */
  transactionIdIn(value: unknown): string | undefined;
  /** A transaction as `/status`, `/cancel` and the webhook events show it. */
  transaction(t: TransactionRow): Record<string, unknown>;
  /** The stored `/checkout` answer (the kit's JSON text) as the dialect writes it. */
  checkout(stored: string): string;
  /** The `/receipt` answer. */
  receipt(r: ReceiptResponse): Record<string, unknown>;
  /** A refund as `/refund` answers it (deferred refunds only). */
  refund(r: RefundView): Record<string, unknown>;
  /** Route middleware put first on every Pay route: words the answers, refusals included. */
  readonly outside: readonly MiddlewareHandler[];
  /** Route middleware put after the token check (it read the raw bytes), before the body's schema: reads ids. */
  readonly inside: readonly MiddlewareHandler[];
}
