import type { z } from 'zod';
import {
  BasketBody,
  ChangeBasketParams,
  ListPayments,
  PaymentEvents,
  PaymentEventsParams,
  PaymentList,
  PaymentRef,
  PaymentView,
  ReceiptBody,
  ReceiptParams,
  RefundBody,
  RefundParams,
  RescanBody,
  RescanParams,
  StartPayment,
} from '../../contracts/cashdesk-payments.js';
import type { KitErrorCode } from '../../errors.js';

/**
 * One payment intent of a till: what the bridge's `pay.<name>`, its HTTP twin, the payments thread's `intent` call
 * and the AsyncAPI/OpenAPI documents are built from. Its handler is the method of the same name on
 * {@link CashDeskPayments} (`(tillId, params) => result`).
 */
export interface IntentDeclaration {
  /** The params as the README names them: the bridge's params, the HTTP body with the path's paymentId. */
  readonly params: z.ZodType;
  /** What it answers. */
  readonly result: z.ZodType;
  /**
   * Whether it claims the payment: it runs where the payment is driven (this instance takes its lease, or has
   * another hand it over), so it may answer PAYMENT_BUSY or PAYMENT_MOVED; the others read what is stored.
   */
  readonly claims: boolean;
  /** Whether it moves money, so the audit log records each call (by the intent's name). */
  readonly audited: boolean;
  /**
   * The codes it answers beyond those every intent may (the database's, PAY_NOT_CONFIGURED, PAYMENTS_CLOSED,
   * the Pay API's and the payment session's).
   */
  readonly errors: readonly KitErrorCode[];
  /** One line for the bridge's AsyncAPI document. */
  readonly summary: string;
  /**
   * Its HTTP twin when it is `POST /v1/payments/{paymentId}/<path>`: that path's last segment, the body (the
   * params but the paymentId the path carries; none: empty or `{}`) and the OpenAPI summary. The others' twins
   * (start, get, list) are routes of their own; `events` is the event stream.
   */
  readonly http?: { readonly path: string; readonly body?: z.ZodType; readonly summary: string };
}

// The scan is verified on the main thread (its replay store, its verifier): their refusals come back.
const VERIFIES: readonly KitErrorCode[] = ['BARCODE_REFUSED', 'STORE_UNAVAILABLE', 'VERIFIER_CLOSED'];
const CLAIMS: readonly KitErrorCode[] = ['PAYMENT_NOT_FOUND', 'PAYMENT_BUSY', 'PAYMENT_MOVED'];

/** Each payment intent, in the order the docs list them; adding one is an entry here and its handler. */
export const PAYMENT_INTENTS = {
  start: {
    params: StartPayment,
    result: PaymentView,
    claims: true,
    audited: true,
    errors: [...VERIFIES, 'PAYMENT_BUSY', 'PAYMENT_MOVED'],
    summary:
      'Verifies `fullBarcode` (or takes `cardSession`), stores the payment and asks for the providers; ' +
      'idempotent by `paymentId`.',
  },
  checkout: {
    params: PaymentRef,
    result: PaymentView,
    claims: true,
    audited: true,
    errors: CLAIMS,
    summary: 'The operator checks out (walletPayIsDefault false, the customer agreed).',
    http: { path: 'checkout', summary: 'The operator checks out (the customer agreed)' },
  },
  get: {
    params: PaymentRef,
    result: PaymentView,
    claims: false,
    audited: false,
    errors: ['PAYMENT_NOT_FOUND'],
    summary: 'The payment as it stands.',
  },
  changeBasket: {
    params: ChangeBasketParams,
    result: PaymentView,
    claims: true,
    audited: false,
    errors: CLAIMS,
    summary: 'The customer changed the basket.',
    http: { path: 'basket', body: BasketBody, summary: 'The customer changed the basket' },
  },
  cancel: {
    params: PaymentRef,
    result: PaymentView,
    claims: true,
    audited: true,
    errors: CLAIMS,
    summary: 'The customer cancels (no result yet).',
    http: { path: 'cancel', summary: 'The customer cancels before the result' },
  },
  retry: {
    params: PaymentRef,
    result: PaymentView,
    claims: true,
    audited: true,
    errors: CLAIMS,
    summary: 'An updated checkout after an unsuccessful result (or the same one after `unknown`).',
    http: { path: 'retry', summary: 'An updated checkout after an unsuccessful result (the same one after unknown)' },
  },
  rescan: {
    params: RescanParams,
    result: PaymentView,
    claims: true,
    audited: true,
    errors: [...VERIFIES, ...CLAIMS, 'NO_RESCAN_PENDING'],
    summary: 'The new scan a `rescanNeeded` asked for.',
    http: { path: 'rescan', body: RescanBody, summary: 'The new scan a rescanNeeded asked for' },
  },
  refund: {
    params: RefundParams,
    result: PaymentView,
    claims: true,
    audited: true,
    errors: CLAIMS,
    summary: 'Refunds all, `amount` or `items`; idempotent by `refundId`.',
    http: { path: 'refund', body: RefundBody, summary: 'Refund all, an amount or items (idempotent by refundId)' },
  },
  receipt: {
    params: ReceiptParams,
    result: PaymentView,
    claims: true,
    audited: true,
    errors: CLAIMS,
    summary: 'Forwards the fiscal receipt to the app.',
    http: { path: 'receipt', body: ReceiptBody, summary: 'Forward the fiscal receipt to the app' },
  },
  abandon: {
    params: PaymentRef,
    result: PaymentView,
    claims: true,
    audited: true,
    errors: CLAIMS,
    summary: 'Falls back to another payment method (an open invoice is cancelled).',
    http: { path: 'abandon', summary: 'Fall back to another payment method' },
  },
  list: {
    params: ListPayments,
    result: PaymentList,
    claims: false,
    audited: false,
    errors: [],
    summary: "This till's payments, optionally in one phase.",
  },
  events: {
    params: PaymentEventsParams,
    result: PaymentEvents,
    claims: false,
    audited: false,
    errors: ['PAYMENT_NOT_FOUND'],
    summary:
      "A payment's events after `afterSeq` (the last one the till got), from the last 100 kept; older: its " +
      'current state, restated. A reconnecting till asks it when a restated state is past the last seq it got.',
  },
} as const satisfies Record<string, IntentDeclaration>;

type Intents = typeof PAYMENT_INTENTS;

/** A payment intent's name (the bridge's method is `pay.<name>`). */
export type IntentName = keyof Intents;

/** What an intent takes: its params as its schema parsed them. */
export type IntentParams<N extends IntentName> = z.output<Intents[N]['params']>;

/** What an intent answers. */
export type IntentResult<N extends IntentName> = z.output<Intents[N]['result']>;

/** The intents the audit log records: each is an audit action of the same name. */
export type AuditedIntent = { [N in IntentName]: Intents[N]['audited'] extends true ? N : never }[IntentName];

/** The intents' names, in the table's order. */
export const INTENT_NAMES = Object.keys(PAYMENT_INTENTS) as IntentName[];

/** An intent's declaration, by a name the caller knows is one (a wire's, a route's). */
export function intentOf(name: IntentName): IntentDeclaration {
  return PAYMENT_INTENTS[name];
}

/** Each intent's handler: what {@link CashDeskPayments} implements, one method per intent. */
export type IntentHandlers = {
  [N in IntentName]: (tillId: string, params: IntentParams<N>) => Promise<IntentResult<N>>;
};
