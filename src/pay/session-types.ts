import type { TransactionRef } from '../contracts/pay/bodies.js';
import type { z } from 'zod';
import type { AvailabilityAnswer, CheckoutAnswer, RefundAnswer, TransactionAnswer } from '../contracts/pay/answers.js';
import type { Offer, RefundItem } from '../contracts/pay/bodies.js';
import type { Item } from '../contracts/pay/items.js';
import type { Sleep } from '../time/sleep.js';
import type { PayClient } from './client.js';
import type { PayError } from './errors.js';
import type { TransactionUpdates } from './updates.js';

/**
 * Where a payment session stands.
 *
 * | phase | meaning | the desk may call |
 * |---|---|---|
 * | `new` | created | `start()` |
 * | `checking` | asking for the providers | |
 * | `offered` | wallet pay possible, not the default: the operator asks | `pay()`, `changeBasket()`, `abandon()` |
 * | `unavailable` | no provider: show each provider's message, use another method (end) | |
 * | `checkout` | POST /checkout in flight, recovering if no answer | |
 * | `rescanning` | the card session was refused: waiting for the till's rescan | |
 * | `pending` | invoice in the app, awaiting payment | `waitForResult()`, `changeBasket()`, `cancel()`, `abandon()` |
 * | `unknown` | no answer to /checkout even after recovery | `recover()`, `abandon()` |
 * | `succeeded` | paid (partial refunds too, until the paid amount is used up) | `sendReceipt()`, `refund()` |
 * | `unsuccessful` | rejected, cancelled or expired | `retry()`, `changeBasket()`, `abandon()` |
 * | `refunded` | fully refunded: the card session is closed, a new payment needs a rescan (end) | `sendReceipt()` |
 * | `blocked` | the token was refused: no operation with the card is possible (end) | |
 * | `abandoned` | the desk fell back to another payment method (end) | |
 *
 * In any phase `refund({ transactionId })` refunds a transaction the session
 * left behind (replaced or cancelled) that the bank paid after all.
 */
export type PaymentPhase =
  | 'new'
  | 'checking'
  | 'offered'
  | 'unavailable'
  | 'checkout'
  | 'rescanning'
  | 'pending'
  | 'unknown'
  | 'succeeded'
  | 'unsuccessful'
  | 'refunded'
  | 'blocked'
  | 'abandoned';

/** A payment provider from the provider list. */
export type Provider = AvailabilityAnswer['providers'][number];

/**
 * Why a session is in phase `unknown`: `OUTCOME_UNKNOWN`, no answer to /checkout even after recovery (`recover()`
 * repeats it); `UNRECOGNIZED_STATUS`, the service has shown only status words its dialect does not know for
 * `unknownStatusTimeoutMs` (still polled: a known status later resolves it).
 */
export type UnknownReason = 'OUTCOME_UNKNOWN' | 'UNRECOGNIZED_STATUS';

/** Why the till must scan the card again. */
export type RescanReason = 'CARD_SESSION_INVALID' | 'REFUNDED';

/** A basket line as the desk gives it (`measure` defaults to PIECE). */
export type BasketItem = z.input<typeof Item>;

/** What is paid: the lines and the part paid otherwise; totalAmount is computed from them. */
export interface Basket {
  items: BasketItem[];
  /** Paid otherwise (cash, advance, points), in kopecks. Default 0. */
  discountAmount?: number;
}

/** One provider's reason to show when wallet pay cannot be used. */
export interface ProviderMessage {
  providerId: string;
  name: string;
  message: string;
}

/**
 * What a session tells the cash desk. The `type`s a UI must act on:
 * `offerWalletPay` (say wallet pay is possible), `showProviderMessages` (none
 * available: show them, fall back), `tellCustomerNotToConfirm` (the invoice is
 * being replaced or cancelled), `rescanNeeded`, `cardRefused` (say operations
 * with the card are impossible), `lateResult` (a cancelled or replaced payment
 * succeeded after all: refund it), `statusNotUnderstood` (the service wrote a
 * status its dialect does not know: polled on as in transit; say so).
 */
export type PaymentSessionEvent =
  | { type: 'phase'; from: PaymentPhase; to: PaymentPhase }
  | { type: 'providers'; walletPayIsDefault: boolean; providers: Provider[] }
  | { type: 'offerWalletPay'; providers: Provider[] }
  | { type: 'showProviderMessages'; messages: ProviderMessage[] }
  | { type: 'tellCustomerNotToConfirm'; reason: 'BASKET_CHANGED' | 'CANCELLING' }
  | { type: 'rescanNeeded'; reason: RescanReason }
  | { type: 'cardRefused'; error: PayError }
  | { type: 'invoice'; checkout: CheckoutAnswer }
  | { type: 'transaction'; state: TransactionAnswer }
  | { type: 'recovering'; step: 'status' | 'checkout'; requestId: string; error: PayError }
  | { type: 'lateResult'; state: TransactionAnswer }
  | { type: 'refund'; refund: RefundRecord }
  | { type: 'statusNotUnderstood'; state: TransactionAnswer };

/**
 * Where a refund stands: `pending` while the service has not settled it (it
 * is followed: asked again by its refundId), then `succeeded`, or `failed`
 * (nothing was given back: the amount can be refunded again).
 */
export type RefundState = 'pending' | 'succeeded' | 'failed';

/** One refund of a session, as asked and as last answered; a repeat of its refundId answers `answer` again. */
export interface RefundRecord {
  refundId: string;
  transactionId: TransactionRef;
  /** What was asked (none of the two: what remained), repeated as it was when the refund is followed. */
  amount?: number;
  items?: Array<z.input<typeof RefundItem>>;
  state: RefundState;
  /** The service's last answer about it. */
  answer: RefundAnswer;
  /** `service`: made outside the kit and recorded from the service's figures (no call was made). Default the kit. */
  origin?: 'service';
  /** RFC 3339 time the service made it (origin `service`). */
  at?: string;
}

/** A transaction of the session as the desk sees it: the current one, and every one it left behind. */
export interface SessionTransaction {
  transactionId: TransactionRef;
  status: TransactionAnswer['status'];
  statusClass: TransactionAnswer['statusClass'];
  /** Whether it is the session's current transaction (the others were replaced or cancelled). */
  current: boolean;
  refundedAmount: number;
  /** What it was for, when known. */
  totalAmount?: number;
}

/** The event of a given type. */
export type PaymentSessionEventOf<T extends PaymentSessionEvent['type']> = Extract<PaymentSessionEvent, { type: T }>;

/** Options of `createPaymentSession`. */
export interface PaymentSessionOptions {
  client: PayClient;
  /** From the scan's `barcodeVerify` (CARDSESSION_AVAILABLE). */
  cardSession: string;
  basket: Basket;
  /** Asks the till to scan the card again; resolves to the new cardSession (reject to give up). */
  rescan(reason: RescanReason): Promise<string>;
  /** Webhook-fed states (see `createPayWebhookHandler`); polling still runs, slower. */
  updates?: TransactionUpdates;
  /** /status poll interval while waiting. Default 2000 ms, or 10 000 ms with `updates`. */
  pollIntervalMs?: number;
  /**
   * Provider list by `task` (POST /availability-info/task, registers the payment and offers) or `info`. Default `task`.
   */
  availability?: 'task' | 'info';
  /**
   * Marketing message per provider (Part A step 4), sent with the task (the kit's field: not with profile 'document').
   */
  offers?: Array<z.input<typeof Offer>>;
  /** Rescans allowed per checkout when the card session is refused. Default 1. */
  maxRescans?: number;
  /**
   * After the client's own retries gave up with no answer: rounds of
   * "the same /checkout again" (profile 'kit': /status by requestId first). Default `{ rounds: 3, baseMs: 500, maxMs:
   * 5000 }`.
   */
  recovery?: { rounds?: number; baseMs?: number; maxMs?: number };
  /** New requestIds and refundIds. Default `randomUUID`. */
  newId?: () => string;
  /** Default: real time. Tests inject their own. */
  sleep?: Sleep;
  /** Jitter source. Default `Math.random`. */
  random?: () => number;
  /**
   * How long the current transaction may show nothing but status words the client's dialect does not know before
   * the session moves to `unknown` (UNRECOGNIZED_STATUS). Default 600 000 ms.
   */
  unknownStatusTimeoutMs?: number;
  /** Now, in ms (for `unknownStatusTimeoutMs`). Default `Date.now`. Tests inject their own. */
  clock?: () => number;
  /** Every event, e.g. for a log. */
  onEvent?: (event: PaymentSessionEvent) => void;
  /**
   * Awaited before a Pay call whose effect must survive a crash (each /checkout
   * with its requestId, each /refund with its refundId): write `snapshot()`
   * durably here. A throw stops the call.
   */
  checkpoint?: () => Promise<void>;
  /** Carries on a session from its `snapshot()` (after a restart): see {@link PaymentSessionSnapshot}. */
  restore?: PaymentSessionSnapshot;
}

/**
 * What a session must keep to carry on after its process died: `snapshot()`
 * gives it, `restore` takes it. A session restored in the middle of a call
 * (`checking`, `checkout`, `rescanning`) comes back where no call is in
 * flight: before the provider list (`new`, asked again with the same requestId), or
 * `unknown` after a /checkout that may have been committed (`recover()` then
 * repeats it with the same requestId and cardSession, document section 7).
 */
export interface PaymentSessionSnapshot {
  phase: PaymentPhase;
  /** Which call the phase belongs to: the provider list or a checkout. */
  stage: 'availability' | 'checkout';
  requestId: string;
  cardSession: string;
  basket: Basket;
  providerId?: string;
  providers: Provider[];
  walletPayIsDefault: boolean;
  /** The current transaction's last known state (or its /checkout answer). */
  transaction?: TransactionAnswer | CheckoutAnswer;
  /** A refund sent without an answer yet: repeated with the same refundId. */
  refundId?: string;
  /** Transactions cancelled or replaced: a success there is a late result. */
  left: TransactionRef[];
  /** The last known states of the transactions left behind (a late success stays refundable after a restart). */
  leftStates?: TransactionAnswer[];
  /** Every refund answered, oldest first: a repeated refundId answers what it answered, a pending one is followed. */
  refunds?: RefundRecord[];
  /** Why the phase is `unknown`, when it is. */
  unknownReason?: UnknownReason;
}
