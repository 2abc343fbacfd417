import { z } from 'zod';
import { ANSWER_READERS, type AnswerReader } from '../contracts/pay/answers.js';
import {
  AvailabilityRequest,
  AvailabilityTaskRequest,
  CancelRequest,
  CheckoutRequest,
  ReceiptRequest,
  RefundItem,
  RefundRequest,
  StatusRequest,
  TransactionRef,
} from '../contracts/pay/bodies.js';
import type { PayOperation } from './events.js';

/**
 * How an operation is used under profile `'document'`: the request schema
 * holding only fields the interface document names (section 2.4, and the
 * /checkout row of 4.2), and whether a repeat is safe without the kit's
 * extensions. `null`: the document shows no path for it (cancel, receipt).
 */
export interface DocumentUse {
  readonly request: z.ZodObject;
  readonly idempotent: boolean;
}

/** How the client calls one Pay API operation. */
export interface Endpoint {
  readonly operation: PayOperation;
  readonly path: string;
  /** The kit's request schema (profile `'kit'`). */
  readonly request: z.ZodType;
  /** Reads a 2xx answer tolerantly (src/contracts/pay/answers.ts). */
  readonly read: AnswerReader<unknown>;
  /**
   * Retried automatically on no answer or 5xx (profile `'kit'`): only
   * operations that cannot take effect twice. /checkout (same requestId, same
   * bytes: the stored answer), /refund (same refundId), /status and
   * /availability-info (reads). Not /availability-info/task, /cancel (a repeat
   * after a lost answer would be INVALID_STATE) or /receipt.
   */
  readonly idempotent: boolean;
  /** Whether the body is checked against the amounts rule before sending. */
  readonly amounts: boolean;
  /** The operation under profile `'document'`. */
  readonly document: DocumentUse | null;
}

const endpoint = (
  operation: PayOperation,
  path: string,
  request: z.ZodType,
  idempotent: boolean,
  document: DocumentUse | null,
  amounts = false,
): Endpoint => ({
  operation,
  path,
  request,
  read: ANSWER_READERS[operation] as AnswerReader<unknown>,
  idempotent,
  amounts,
  document,
});

/**
 * The kit's bodies with a transactionId as the service wrote it (text or a JSON number): sent back in the JSON
 * type it came in, as a Java service's `long` must be.
 */
const withRef = <S extends z.ZodRawShape>(schema: z.ZodType) =>
  z.object({ ...(schema as unknown as z.ZodObject<S>).shape, transactionId: TransactionRef }).strict();
const byTransaction = z.object({ transactionId: TransactionRef }).strict();
const byRequest = StatusRequest.options[1] as unknown as z.ZodObject;
const status = z.union([byTransaction, byRequest], {
  error: 'must be { transactionId } or { requestId, cardSession }',
});
const refund = withRef<(typeof RefundRequest)['shape']>(RefundRequest).refine(
  (r) => !(r.amount !== undefined && r.items !== undefined),
  { error: 'give amount or items, not both' },
);
const cancel = withRef(CancelRequest);
const receipt = withRef(ReceiptRequest);
// No receiptId (the kit's): without it a repeat after a lost answer may forward the receipt twice.
const documentReceipt = withRef<(typeof ReceiptRequest)['shape']>(ReceiptRequest).omit({ receiptId: true });

const noOffers = (AvailabilityTaskRequest as unknown as z.ZodObject).omit({ offers: true });
const noProvider = (CheckoutRequest as unknown as z.ZodObject).omit({ providerId: true });
// No refundId (the kit's) nor amount (a partial refund by amount): the document names items and their article,
// quantity.
const documentRefund = z
  .object({ transactionId: TransactionRef, items: z.array(RefundItem).min(1).max(1000).optional() })
  .strict();

/** The seven operations (openapi/pay.json). `/cancel` answers the transaction's new state. */
export const ENDPOINTS = {
  availability: endpoint('availability', '/availability-info', AvailabilityRequest, true, {
    request: AvailabilityRequest as unknown as z.ZodObject,
    idempotent: true,
  }),
  availabilityTask: endpoint(
    'availabilityTask',
    '/availability-info/task',
    AvailabilityTaskRequest,
    false,
    { request: noOffers, idempotent: false },
    true,
  ),
  checkout: endpoint('checkout', '/checkout', CheckoutRequest, true, { request: noProvider, idempotent: true }, true),
  // The document: /status by transactionId (by requestId + cardSession is the kit's).
  status: endpoint('status', '/status', status, true, { request: byTransaction, idempotent: true }),
  cancel: endpoint('cancel', '/cancel', cancel, false, null),
  // Without a refundId a repeat after a lost answer could refund twice: never retried.
  refund: endpoint('refund', '/refund', refund, true, { request: documentRefund, idempotent: false }),
  receipt: endpoint('receipt', '/receipt', receipt, false, null),
} as const satisfies Record<PayOperation, Endpoint>;

/** The schema of cancel and receipt when the caller gives their paths under profile `'document'`. */
export const DOCUMENT_FALLBACK: Partial<Record<PayOperation, DocumentUse>> = {
  cancel: { request: byTransaction, idempotent: false },
  receipt: { request: documentReceipt, idempotent: false },
};
