import { z } from 'zod';
import { MAX_BARCODE_LENGTH } from './cashdesk.js';
import { CardSession, Provider, RefundItem, TransactionRef } from './pay/bodies.js';
import { GivenItem, MAX_AMOUNT } from './pay/items.js';
import { StatusClass } from './pay/statuses.js';
import { boundedJsonRule } from './text.js';

/**
 * Payments the cash desk server runs for its tills (docs/architecture.md,
 * "The path of a payment"): one set of schemas for the bridge's `pay.*` params, the HTTP
 * twins under `/v1/payments`, and the OpenAPI document.
 */

/** Where a payment stands (the payment session's phases, `src/pay`). */
export const PaymentPhase = z
  .enum([
    'new',
    'checking',
    'offered',
    'unavailable',
    'checkout',
    'rescanning',
    'pending',
    'unknown',
    'succeeded',
    'unsuccessful',
    'refunded',
    'blocked',
    'abandoned',
  ])
  .meta({ id: 'PaymentPhase' });

export const PaymentId = z
  .string({ error: 'must be a string' })
  .regex(/^[A-Za-z0-9._:-]{1,64}$/, { error: 'must be 1 to 64 of [A-Za-z0-9._:-]' })
  .meta({
    description: "The till's own id of the payment, its idempotency key: a repeat returns the same payment.",
    example: 'till-1-sale-0042',
  });

const FullBarcode = z
  .string({ error: 'must be a string' })
  .max(MAX_BARCODE_LENGTH, { error: `must be at most ${MAX_BARCODE_LENGTH} characters` })
  .meta({ description: 'The barcode as scanned; the server verifies it (one scan serves loyalty and payment).' });

/** What is paid: the lines and the part paid otherwise; totalAmount is computed from them. */
export const PaymentBasket = z
  .object({
    items: z
      .array(GivenItem, { error: 'must be a list of items' })
      .min(1, { error: 'must list at least one item' })
      .max(1000),
    discountAmount: z
      .number({ error: 'must be an integer number of kopecks' })
      .int({ error: 'must be an integer number of kopecks' })
      .min(0, { error: 'must not be negative' })
      .max(MAX_AMOUNT)
      .default(0),
  })
  .strict()
  .meta({ id: 'PaymentBasket' });

/** `pay.start` / `POST /v1/payments`. */
export const StartPayment = z
  .object({
    fullBarcode: FullBarcode.optional(),
    cardSession: CardSession.optional().meta({
      description: 'Instead of fullBarcode: a card session the till verified itself.',
    }),
    basket: PaymentBasket,
    paymentId: PaymentId.optional().meta({ description: 'Default: a new id, answered.' }),
  })
  .strict()
  .refine((b) => (b.fullBarcode === undefined) !== (b.cardSession === undefined), {
    error: 'give fullBarcode or cardSession, exactly one',
    path: ['fullBarcode'],
  })
  .meta({ id: 'StartPayment' });

/** Params naming one payment. */
export const PaymentRef = z.object({ paymentId: PaymentId }).strict().meta({ id: 'PaymentRef' });

export const BasketBody = z.object({ basket: PaymentBasket }).strict().meta({ id: 'BasketBody' });
export const RescanBody = z.object({ fullBarcode: FullBarcode }).strict().meta({ id: 'RescanBody' });
const refundShape = {
  refundId: z
    .string({ error: 'must be a string' })
    .regex(/^[A-Za-z0-9._:-]{1,64}$/, { error: 'must be 1 to 64 of [A-Za-z0-9._:-]' })
    .meta({ description: 'Identifies one refund; repeating it is safe.' }),
  amount: z.number().int().min(1, { error: 'must be a positive number of kopecks' }).max(MAX_AMOUNT).optional(),
  items: z.array(RefundItem).min(1).max(1000).optional(),
  transactionId: TransactionRef.optional().meta({
    description:
      "Which of the payment's transactions (`transactions` in the payment): default the current one; " +
      'another one the payment left behind (replaced or cancelled) that the bank paid late.',
  }),
};
const oneRefundPart = { error: 'give amount or items, not both' } as const;
export const RefundBody = z
  .object(refundShape)
  .strict()
  .refine((r) => !(r.amount !== undefined && r.items !== undefined), oneRefundPart)
  .meta({ id: 'RefundBody' });
export const ReceiptBody = z
  .object({
    // Forwarded as given, so checked as the Pay API checks it: the text rule, and a bounded depth (the bridge's params
    // arrive parsed, past any check of the text; a deep one overflowed the stack further on, a 500).
    receipt: z
      .record(z.string(), z.unknown(), { error: 'must be an object' })
      .superRefine(boundedJsonRule)
      .meta({
        description:
          'The fiscal receipt, forwarded to the app as given: at most 64 levels deep, no control characters but ' +
          'tab, LF and CR.',
      }),
  })
  .strict()
  .meta({ id: 'ReceiptBody' });

// The bridge's params: the HTTP bodies with the paymentId the HTTP path carries.
export const ChangeBasketParams = BasketBody.extend({ paymentId: PaymentId }).strict();
export const RescanParams = RescanBody.extend({ paymentId: PaymentId }).strict();
export const RefundParams = z
  .object({ paymentId: PaymentId, ...refundShape })
  .strict()
  .refine((r) => !(r.amount !== undefined && r.items !== undefined), oneRefundPart);
export const ReceiptParams = ReceiptBody.extend({ paymentId: PaymentId }).strict();
export const ListPayments = z.object({ phase: PaymentPhase.optional() }).strict().meta({ id: 'ListPayments' });

/** `pay.events`: a payment's events after the last one a till got (its `seq`), from the last 100 kept. */
export const PaymentEventsParams = z
  .object({
    paymentId: PaymentId,
    afterSeq: z
      .number({ error: 'must be a number' })
      .int({ error: 'must be an integer' })
      .min(0, { error: 'must be at least 0' })
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .meta({ description: 'The seq of the last event the till got; absent or 0: the current state.' }),
  })
  .strict()
  .meta({ id: 'PaymentEventsParams' });

/** A transaction id as the Pay service wrote it: text, or a JSON number (a Java `long`), kept in that type. */
const ServiceTransactionId = TransactionRef.meta({
  description: 'The transaction as the Pay service wrote it: text or a JSON number.',
});
/** A status as the Pay service wrote it; `statusClass` is its class in the configured dialect. */
const ServiceStatus = z.string().meta({
  description:
    "The transaction's status as the Pay service wrote it (the kit's sandbox: created, processing, succeeded, " +
    'rejected, cancelled, expired); statusClass is its class in the configured dialect, absent when the dialect ' +
    'does not know it.',
});
/** One transaction (invoice) of a payment: the current one, and each one it left behind. */
export const PaymentTransaction = z
  .object({
    transactionId: ServiceTransactionId,
    status: ServiceStatus,
    statusClass: StatusClass.optional(),
    current: z
      .boolean()
      .meta({ description: "The payment's current transaction; the others were replaced or cancelled." }),
    refundedAmount: z.number().int(),
    totalAmount: z.number().int().optional(),
  })
  .meta({ id: 'PaymentTransaction' });

/** One refund of a payment, as last known: a repeat of its refundId answers it again. */
export const PaymentRefund = z
  .object({
    refundId: z.string(),
    transactionId: ServiceTransactionId,
    amount: z
      .number()
      .int()
      .optional()
      .meta({ description: 'As asked, or as the service answered; absent: not told.' }),
    status: z.enum(['pending', 'succeeded', 'failed']).meta({
      description: 'pending: the service has not settled it yet (followed); failed: nothing was given back.',
    }),
    origin: z
      .enum(['kit', 'service'])
      .optional()
      .meta({
        description:
          'service: made outside the kit (another system at the Pay API), recorded by `pay reconcile --heal`; ' +
          'absent: made through the kit.',
      }),
    at: z.string().optional().meta({
      description: 'RFC 3339 time the service made it (origin service only): the day-close counts it that day.',
    }),
  })
  .meta({ id: 'PaymentRefund' });
export type PaymentRefund = z.infer<typeof PaymentRefund>;

/** A payment as the till sees it. */
export const PaymentView = z
  .object({
    paymentId: PaymentId,
    phase: PaymentPhase,
    walletPayIsDefault: z.boolean(),
    providers: z.array(Provider),
    transactionId: ServiceTransactionId.optional(),
    status: ServiceStatus.optional(),
    statusClass: StatusClass.optional(),
    reason: z
      .string()
      .optional()
      .meta({
        description:
          'Why it was rejected (INSUFFICIENT_FUNDS, DECLINED, TECHNICAL); in phase unknown, UNRECOGNIZED_STATUS ' +
          'when only status words the dialect does not know came for unknownStatusTimeoutMs.',
      }),
    totalAmount: z.number().int(),
    refundedAmount: z.number().int().optional(),
    transactions: z.array(PaymentTransaction).optional().meta({
      description: 'Every invoice of the payment, oldest first; one paid late is refunded by its transactionId.',
    }),
    refunds: z.array(PaymentRefund).optional(),
    receiptSent: z.boolean(),
    receiptId: z.string().optional().meta({
      description: "The last receipt's id: the same receipt given again has the same id and is not sent twice.",
    }),
    receiptStatus: z
      .enum(['sending', 'sent', 'unknown'])
      .optional()
      .meta({
        description:
          'Where the last receipt stands: sending (recorded, outcome not yet known), sent, or unknown (profile ' +
          'document: no answer came, and it is never sent again on its own; `pay reconcile` settles it).',
      }),
    updatedAt: z.string().meta({ description: 'RFC 3339 time of the last change.' }),
  })
  .meta({ id: 'Payment' });
export type PaymentView = z.infer<typeof PaymentView>;

export const PaymentList = z.object({ payments: z.array(PaymentView) }).meta({ id: 'PaymentList' });

/** Session events a till must act on (see `PaymentSessionEvent` in src/pay). */
export const SessionEventType = z
  .enum([
    'offerWalletPay',
    'showProviderMessages',
    'tellCustomerNotToConfirm',
    'rescanNeeded',
    'lateResult',
    'cardRefused',
    'refundUpdated',
    'statusNotUnderstood',
  ])
  .meta({ id: 'SessionEventType' });

/**
 * `pay.sessionUpdated` (and each server-sent event of `GET
 * /v1/payments/{paymentId}/events`): every phase change and session event.
 * `reason` is the event's own reason (`rescanNeeded`: CARD_SESSION_INVALID or
 * REFUNDED; `tellCustomerNotToConfirm`: BASKET_CHANGED or CANCELLING;
 * `cardRefused`: the Pay error code) when there is one, else the rejected
 * transaction's reason. `refundUpdated` carries the refund (answered, or
 * settled after it was pending).
 * transaction's reason. `statusNotUnderstood`: the service wrote `status`, a
 * word the dialect does not know; the payment is polled on as in transit.
 */
export const SessionUpdate = z
  .object({
    paymentId: PaymentId,
    phase: PaymentPhase,
    status: ServiceStatus.optional(),
    statusClass: StatusClass.optional(),
    reason: z.string().optional(),
    transactionId: ServiceTransactionId.optional(),
    event: SessionEventType.optional(),
    messages: z.array(z.object({ providerId: z.string(), name: z.string(), message: z.string() })).optional(),
    refund: PaymentRefund.optional(),
    /** The payment's event number (1, 2, ...), stored with it: a till that reconnects is told the events it missed. */
    seq: z.number().int().positive().optional(),
    restated: z
      .literal(true)
      .optional()
      .meta({
        description:
          "The payment's current state as of `seq`, restated (on connection, or when the events asked for are " +
          'older than the last 100 kept), not one event.',
      }),
  })
  .meta({ id: 'SessionUpdate' });
export type SessionUpdate = z.infer<typeof SessionUpdate>;

/** `pay.events`' answer: a payment's events after the seq asked, in order (or its current state, restated). */
export const PaymentEvents = z.object({ events: z.array(SessionUpdate) }).meta({ id: 'PaymentEvents' });

export type StartPayment = z.output<typeof StartPayment>;
/** `pay.refund` without its paymentId: which refund (refundId), of which transaction, how much. */
export type RefundIntent = z.output<typeof RefundBody>;
export type PaymentBasket = z.output<typeof PaymentBasket>;
