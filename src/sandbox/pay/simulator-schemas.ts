import { z } from '@hono/zod-openapi';
import {
  CardSession,
  Item,
  Provider,
  RejectReason,
  TransactionId,
  TransactionState,
} from '../../contracts/pay/index.js';
import { singleLine } from '../../contracts/text.js';
import { CardNumberText } from '../../contracts/card-identifiers.js';

const PartnerId = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{1,64}$/, { error: 'must be 1 to 64 of [A-Za-z0-9._:-]' })
  .openapi({ example: 'demo-partner' });
// .meta, not .openapi: the contracts' schema is zod's own, which zod-openapi may not have extended yet.
const CardNumber = CardNumberText.meta({ example: '4000123412341234' });

/** A partner's barcode layout (document section 2.1 without the key). */
export const BarcodeLayoutSchema = z
  .object({
    algorythm: z.enum(['HMACSHA256', 'HMACSHA1'], { error: 'must be HMACSHA256 or HMACSHA1' }),
    passLength: z.number().int().min(1).max(10),
    prefix: z.string().regex(/^[\x21-\x7e]{1,16}$/, { error: 'must be 1 to 16 printable ASCII characters' }),
    interval: z.number().int().min(1).max(86_400),
    cardSessionLength: z.number().int().min(1).max(64),
    delimeter: z
      .string()
      .regex(/^[^0-9A-Za-z-\s]{1,4}$/, { error: 'must be 1 to 4 characters, no letters, digits, - or spaces' }),
  })
  .strict()
  .openapi('BarcodeLayout');

/** POST /sandbox/partners: create or update a partner. */
export const PartnerRequest = z
  .object({
    partnerId: PartnerId,
    key: z
      .string()
      .regex(/^(?:[0-9a-fA-F]{2}){16,1024}$/, { error: 'must be hex of 16 to 1024 bytes' })
      .openapi({ description: "The partner key (hex), the one the merchant's verifier is configured with." }),
    webhookUrl: singleLine(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048))
      .nullable()
      .optional()
      .openapi({ description: 'Where `transaction.updated` events go; null stops them.' }),
    webhookSecret: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/, { error: 'must be whsec_ followed by base64 of 24 to 64 bytes' })
      .optional(),
    layout: BarcodeLayoutSchema.optional(),
    scheme: z
      .enum(['rfc6238', 'card-bound'], { error: 'must be rfc6238 or card-bound' })
      .optional()
      .openapi({
        description:
          "How the app draws barcodes; the merchant's verifier must use the same. Default for a new partner: " +
          'rfc6238; kept on update.',
      }),
  })
  .strict()
  .openapi('SandboxPartnerRequest');
/** A partner as the simulator shows it, with its webhook secret. */
export const PartnerResponse = z
  .object({
    partnerId: PartnerId,
    webhookUrl: z.string().nullable(),
    webhookSecret: z.string(),
    layout: BarcodeLayoutSchema,
    scheme: z.enum(['rfc6238', 'card-bound']),
  })
  .openapi('SandboxPartner');

/** POST /sandbox/cards: the app issues a card (and, by default, a card session). */
export const CardRequest = z
  .object({
    partnerId: PartnerId.optional().openapi({ description: 'Default: the only partner.' }),
    cardNumber: CardNumber.optional().openapi({ description: 'Default: a new 16-digit number.' }),
    cardSession: CardSession.optional().openapi({
      description:
        "A test option: the card session to open, exactly the partner's cardSessionLength printable ASCII " +
        'characters without its delimiter. Default: a new random one of letters and digits.',
    }),
    withSession: z
      .boolean()
      .default(true)
      .openapi({ description: 'false: a barcode without a card session (no wallet payment).' }),
    keepSession: z
      .boolean()
      .default(false)
      .openapi({
        description:
          "true: draw with the card's latest card session while it is open and unexpired (the app redrawing its " +
          'barcode each step); a new one otherwise.',
      }),
    walletPayIsDefault: z.boolean().optional(),
    payEnabled: z
      .boolean()
      .optional()
      .openapi({ description: 'false: every provider is unavailable for this customer.' }),
    providers: z.array(Provider.strict()).min(1).max(20).optional().openapi({
      description:
        "The providers this customer is offered (kept across rescans). Default: the sandbox's, all available.",
    }),
  })
  .strict()
  .openapi('SandboxCardRequest');
/** POST /sandbox/cards/{cardNumber}/barcode: a rescan, with the same optional card settings. */
export const BarcodeRequest = CardRequest.omit({ cardNumber: true }).openapi('SandboxBarcodeRequest');
/** What the app holds for a card and the barcode it draws now. */
export const CardResponse = z
  .object({
    partnerId: PartnerId,
    cardNumber: CardNumber,
    cardKey: z
      .string()
      .nullable()
      .openapi({ description: 'card-bound partners: the diversified card key the app holds (hex); rfc6238: null.' }),
    cardSession: CardSession.nullable(),
    barcode: z.string(),
    sessionExpiresAt: z.string().nullable(),
    interval: z
      .number()
      .int()
      .openapi({ description: 'Seconds per password: the app draws a new barcode at each step.' }),
    drawnAt: z.string().openapi({ description: 'RFC 3339 time (the sandbox clock) the password was drawn for.' }),
  })
  .openapi('SandboxCard');
/** The `{cardNumber}` path parameter. */
export const CardPath = z.object({ cardNumber: CardNumber.openapi({ param: { name: 'cardNumber', in: 'path' } }) });

/** GET /sandbox/app/invoices query. */
export const InvoicesQuery = z.object({
  cardNumber: CardNumber.openapi({ param: { name: 'cardNumber', in: 'query' } }),
  partnerId: PartnerId.optional().openapi({ param: { name: 'partnerId', in: 'query' } }),
});
/** An invoice waiting for the customer: the state, the basket and the offers of the card session's latest task. */
export const Invoice = TransactionState.extend({
  cardSession: CardSession,
  items: z.array(Item),
  discountAmount: z.number().int(),
  providerId: z.string().nullable(),
  invoiceExpiresAt: z.string(),
  offers: z.array(z.object({ providerId: z.string(), marketingMessage: z.string() })),
}).openapi('SandboxInvoice');
/** The customer's pending invoices. */
export const InvoicesResponse = z.object({ invoices: z.array(Invoice) }).openapi('SandboxInvoices');

/** The `{transactionId}` path parameter. */
export const TransactionPath = z.object({
  transactionId: TransactionId.meta({ param: { name: 'transactionId', in: 'path' } }),
});
/** POST /sandbox/app/transactions/{id}/decline: why the customer declines. */
export const DeclineRequest = z
  .object({
    reason: z
      .enum(['DECLINED', 'INSUFFICIENT_FUNDS'], { error: 'must be DECLINED or INSUFFICIENT_FUNDS' })
      .default('DECLINED'),
  })
  .strict()
  .openapi('SandboxDeclineRequest');

/** POST /sandbox/bank: the simulated bank's next answers and their timing. */
export const BankRequest = z
  .object({
    mode: z.enum(['approve', 'decline', 'insufficient', 'technical'], {
      error: 'must be approve, decline, insufficient or technical',
    }),
    delayMs: z
      .number()
      .int()
      .min(0)
      .max(86_400_000)
      .default(0)
      .openapi({ description: 'The bank answers this long after the confirmation (divided by timeScale).' }),
    receiveMs: z
      .number()
      .int()
      .min(0)
      .max(86_400_000)
      .default(0)
      .openapi({
        description:
          'The bank receives the payment this long after the confirmation (divided by timeScale); a /cancel ' +
          'before it withdraws the payment, after it the answer still comes.',
      }),
  })
  .strict()
  .openapi('SandboxBank');

/** POST /sandbox/bank/refunds: how the next refunds settle where they settle later (the foreign dialect). */
export const RefundSettingsRequest = z
  .object({
    mode: z.enum(['approve', 'fail'], { error: 'must be approve or fail' }),
    delayMs: z.number().int().min(0).max(86_400_000).default(0).openapi({
      description: 'Pending this long on the sandbox clock (not scaled), then settled by a read or sweep.',
    }),
  })
  .strict()
  .openapi('SandboxRefundSettings');

/** POST /sandbox/faults: a fault for the next requests to a Pay API path. */
export const FaultRequest = z
  .object({
    path: z.enum(
      ['/availability-info', '/availability-info/task', '/checkout', '/status', '/cancel', '/refund', '/receipt'],
      { error: 'must be a Pay API path' },
    ),
    action: z.enum(['drop-after-commit', 'fail-before-commit', 'delay'], {
      error: 'must be drop-after-commit, fail-before-commit or delay',
    }),
    count: z.number().int().min(1).max(1000).default(1),
    delayMs: z
      .number()
      .int()
      .min(0)
      .max(600_000)
      .default(0)
      .openapi({ description: 'For delay: real milliseconds (not scaled).' }),
  })
  .strict()
  .openapi('SandboxFaultRequest');
/** The faults still armed. */
export const FaultsResponse = z
  .object({
    faults: z.array(
      z.object({ path: z.string(), action: z.string(), remaining: z.number().int(), delayMs: z.number().int() }),
    ),
  })
  .openapi('SandboxFaults');

/** A transaction's full record for inspection. */
export const TransactionRecord = TransactionState.extend({
  partnerId: z.string(),
  cardSession: CardSession,
  cardNumber: z.string(),
  providerId: z.string().nullable(),
  items: z.array(Item),
  discountAmount: z.number().int(),
  reason: RejectReason.optional(),
  version: z.number().int(),
  createdAt: z.string(),
  invoiceExpiresAt: z.string(),
  confirmedAt: z.string().nullable(),
  cancelledBy: z.enum(['merchant', 'customer', 'superseded']).nullable(),
  bank: z.object({
    outcome: z.string().nullable(),
    delayMs: z.number().nullable(),
    receiveMs: z.number().nullable(),
    receivedAt: z.string().nullable(),
    answeredAt: z.string().nullable(),
  }),
  refunds: z.array(
    z.object({
      refundId: z.string(),
      amount: z.number().int(),
      items: z.array(z.object({ article: z.string(), quantity: z.number().int() })).nullable(),
      createdAt: z.string(),
    }),
  ),
  receipts: z.array(z.object({ receipt: z.record(z.string(), z.unknown()), receivedAt: z.string() })),
}).openapi('SandboxTransaction');

/** A card's transactions for the app's history: newest first, with refunds and receipts. */
export const CardTransactionsResponse = z
  .object({ transactions: z.array(TransactionRecord) })
  .openapi('SandboxCardTransactions');

/** A validated partner request. */
export type PartnerRequest = z.output<typeof PartnerRequest>;
/** A validated card request. */
export type CardRequest = z.output<typeof CardRequest>;
/** A transaction record. */
export type TransactionRecord = z.output<typeof TransactionRecord>;
/** A pending invoice. */
export type Invoice = z.output<typeof Invoice>;
