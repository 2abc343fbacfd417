import { z } from 'zod';
import { CardSessionText } from '../card-identifiers.js';
import { Amounts, Item, MAX_AMOUNT } from './items.js';
import { freeText, jsonTextRule, singleLine } from '../text.js';
import { RejectReason, StatusClass, TransactionStatus } from './statuses.js';

const id = (what: string, example: string) =>
  z
    .string({ error: 'must be a string' })
    .regex(/^[A-Za-z0-9._:-]{1,64}$/, { error: 'must be 1 to 64 of [A-Za-z0-9._:-]' })
    .meta({ description: what, example });

export const RequestId = id('Identifies one checkout request; a new one for every updated invoice.', 'req-000123');
/** The payment session identifier from the barcode. */
export const CardSession = CardSessionText;
/**
 * A transactionId as text: the document types it String, so any 1 to 256 characters without control characters (a
 * service's may hold slashes, spaces or run long); the kit's own are `trx_<hex>`.
 */
export const TransactionId = singleLine(
  z
    .string({ error: 'must be a string' })
    .min(1, { error: 'must be 1 to 256 characters without control characters' })
    .max(256, { error: 'must be 1 to 256 characters without control characters' }),
).meta({ description: 'Identifies a payment transaction, as the Pay service wrote it.', example: 'trx-7f3a' });
/**
 * A transactionId as a service may write it: the kit's text, or a JSON number
 * (a Java `long`). A number is kept as a number and sent back as one; past
 * 2^53 - 1 a JSON number cannot be read exactly in JavaScript, so it is
 * refused rather than rounded to another transaction's id.
 */
export const TransactionRef = z.union(
  [
    TransactionId,
    z
      .number()
      .refine((n) => Number.isInteger(n) && n >= 0, { error: 'must be a whole JSON number, not negative' })
      .refine((n) => n <= Number.MAX_SAFE_INTEGER, {
        error: 'a JSON number beyond 2^53 - 1 cannot be read exactly: the service must send it as a string',
      }),
  ],
  { error: 'must be a string of 1 to 256 characters without control characters or a whole JSON number' },
);
/** A transactionId as the service wrote it: text, or a JSON number. */
export type TransactionRef = string | number;
export const ProviderId = id('Identifies a payment provider.', 'wallet-sbp');

export const Provider = z
  .object({
    providerId: ProviderId,
    name: singleLine(z.string()),
    available: z.boolean(),
    message: freeText(z.string()).optional().meta({ description: 'Why the provider is unavailable.' }),
  })
  .meta({ id: 'Provider' });

// POST /availability-info
export const AvailabilityRequest = z.object({ cardSession: CardSession }).strict().meta({ id: 'AvailabilityRequest' });
export const AvailabilityResponse = z
  .object({
    walletPayIsDefault: z.boolean(),
    providers: z.array(Provider),
  })
  .meta({ id: 'AvailabilityResponse' });

// POST /availability-info/task
export const Offer = z
  .object({
    providerId: ProviderId,
    marketingMessage: freeText(
      z.string({ error: 'must be a string' }).max(500, { error: 'must be at most 500 characters' }),
    ),
  })
  .strict()
  .meta({ id: 'Offer' });
export const AvailabilityTaskRequest = z
  .object({
    requestId: RequestId,
    cardSession: CardSession,
    ...Amounts,
    items: z.array(Item).max(1000).optional(),
    offers: z.array(Offer).max(20).optional(),
  })
  .strict()
  .meta({ id: 'AvailabilityTaskRequest' });
export const AvailabilityTaskResponse = AvailabilityResponse.extend({
  taskId: z.string(),
}).meta({ id: 'AvailabilityTaskResponse' });

// POST /checkout
export const CheckoutRequest = z
  .object({
    requestId: RequestId,
    cardSession: CardSession,
    providerId: ProviderId.optional(),
    items: z
      .array(Item, { error: 'must be a list of items' })
      .min(1, { error: 'must list at least one item' })
      .max(1000),
    ...Amounts,
  })
  .strict()
  .meta({ id: 'CheckoutRequest' });
export const CheckoutResponse = z
  .object({
    transactionId: TransactionId,
    requestId: RequestId,
    status: TransactionStatus,
  })
  .meta({ id: 'CheckoutResponse' });

// POST /status
export const StatusRequest = z
  .union(
    [
      z.object({ transactionId: TransactionId }).strict(),
      z.object({ requestId: RequestId, cardSession: CardSession }).strict(),
    ],
    { error: 'must be { transactionId } or { requestId, cardSession }' },
  )
  .meta({ id: 'StatusRequest' });
export const TransactionState = z
  .object({
    transactionId: TransactionId,
    requestId: RequestId,
    status: TransactionStatus,
    statusClass: StatusClass,
    reason: RejectReason.optional(),
    totalAmount: z.number().int(),
    refundedAmount: z.number().int(),
    updatedAt: z.string().meta({ description: 'RFC 3339 time of the last change.' }),
  })
  .meta({ id: 'TransactionState' });

// POST /cancel
export const CancelRequest = z.object({ transactionId: TransactionId }).strict().meta({ id: 'CancelRequest' });

// POST /refund
export const RefundItem = z
  .object({
    article: singleLine(z.string().min(1).max(64)),
    quantity: z
      .number({ error: 'must be a positive integer' })
      .int({ error: 'must be a positive integer' })
      .min(1, { error: 'must be a positive integer' }),
  })
  .strict()
  .meta({ id: 'RefundItem' });
export const RefundRequest = z
  .object({
    transactionId: TransactionId,
    refundId: id('Identifies one refund; repeating it is safe.', 'ref-1'),
    amount: z.number().int().min(1, { error: 'must be a positive number of kopecks' }).max(MAX_AMOUNT).optional(),
    items: z.array(RefundItem).min(1).max(1000).optional(),
  })
  .strict()
  .refine((r) => !(r.amount !== undefined && r.items !== undefined), { error: 'give amount or items, not both' })
  .meta({ id: 'RefundRequest' });
export const RefundResponse = z
  .object({
    refundId: z.string(),
    transactionId: TransactionId,
    amount: z.number().int(),
    refundedAmount: z.number().int(),
    status: z.literal('succeeded'),
  })
  .meta({ id: 'RefundResponse' });

// POST /receipt
export const ReceiptRequest = z
  .object({
    transactionId: TransactionId,
    receipt: z
      .record(z.string(), z.unknown())
      .superRefine(jsonTextRule)
      .meta({ description: 'The fiscal receipt, forwarded to the app as given.' }),
    receiptId: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .meta({
        description:
          "The kit's extension: the sender's id of this receipt. A repeat with the same receiptId (its answer was " +
          'lost) is answered without forwarding the receipt again.',
      }),
  })
  .strict()
  .meta({ id: 'ReceiptRequest' });
export const ReceiptResponse = z
  .object({ transactionId: TransactionId, status: z.literal('ACCEPTED') })
  .meta({ id: 'ReceiptResponse' });

/** The webhook event the service POSTs on every status change (Standard Webhooks signed). */
export const TransactionUpdatedEvent = z
  .object({
    type: z.literal('transaction.updated'),
    timestamp: z.string(),
    data: TransactionState,
  })
  .meta({ id: 'TransactionUpdatedEvent' });

export type AvailabilityRequest = z.infer<typeof AvailabilityRequest>;
export type AvailabilityResponse = z.infer<typeof AvailabilityResponse>;
export type AvailabilityTaskRequest = z.input<typeof AvailabilityTaskRequest>;
export type AvailabilityTaskResponse = z.infer<typeof AvailabilityTaskResponse>;
export type CheckoutRequest = z.input<typeof CheckoutRequest>;
export type CheckoutResponse = z.infer<typeof CheckoutResponse>;
export type StatusRequest = z.infer<typeof StatusRequest>;
export type TransactionState = z.infer<typeof TransactionState>;
export type CancelRequest = z.infer<typeof CancelRequest>;
export type RefundRequest = z.infer<typeof RefundRequest>;
export type RefundResponse = z.infer<typeof RefundResponse>;
export type ReceiptRequest = z.infer<typeof ReceiptRequest>;
export type ReceiptResponse = z.infer<typeof ReceiptResponse>;
export type TransactionUpdatedEvent = z.infer<typeof TransactionUpdatedEvent>;
