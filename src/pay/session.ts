import type { TransactionRef } from '../contracts/pay/bodies.js';
import type {
  CheckoutAnswer as CheckoutResponse,
  ReceiptAnswer as ReceiptResponse,
  RefundAnswer as RefundResponse,
  TransactionAnswer as TransactionState,
} from '../contracts/pay/answers.js';
import type { PayDialect } from '../contracts/pay/dialect.js';
import { PaymentSessionError } from './errors.js';
import * as checkout from './session-checkout.js';
import { SessionCore } from './session-core.js';
import { refund, type RefundPart, sendReceipt } from './session-refund.js';
import { refresh, restore, snapshot } from './session-restore.js';
import { start } from './session-start.js';
import { sessionTransactions } from './session-transactions.js';
import type {
  Basket,
  PaymentPhase,
  PaymentSessionEvent,
  PaymentSessionEventOf,
  PaymentSessionOptions,
  PaymentSessionSnapshot,
  Provider,
  RefundRecord,
  SessionTransaction,
  UnknownReason,
} from './session-types.js';

/**
 * One customer's wallet payment at a cash desk, through Part A and Part B of
 * the payment scenario and every recovery rule of the document's section 7.
 * Create it with {@link createPaymentSession}; read `phase`, listen with `on`.
 */
export class PaymentSession {
  // The operations live by concept beside this file, on the state they share (session-core): session-start (the
  // provider list), session-checkout (checkout and its result, basket change, cancel, retry, recover, abandon),
  // session-restore (snapshot, restore, refresh), session-refund (refund, receipt).
  readonly #s: SessionCore;

  constructor(options: PaymentSessionOptions) {
    this.#s = new SessionCore(options);
    if (options.restore) restore(this.#s, options.restore);
  }

  /** Where the session stands. */
  get phase(): PaymentPhase {
    return this.#s.phase;
  }
  /** The service's words the session reads statuses with (its client's dialect). */
  get dialect(): PayDialect {
    return this.#s.dialect;
  }
  /** Why the phase is `unknown`, when it is (see {@link UnknownReason}). */
  get unknownReason(): UnknownReason | undefined {
    return this.#s.phase === 'unknown' ? this.#s.unknownReason : undefined;
  }
  /** The card session in use (a rescan replaces it). */
  get cardSession(): string {
    return this.#s.cardSession;
  }
  /** The requestId of the current (or next) checkout. */
  get requestId(): string {
    return this.#s.requestId;
  }
  /** The current transaction's last known state, once there is one. */
  get transaction(): TransactionState | undefined {
    return this.#s.transaction;
  }
  /** The current transaction's id, once /checkout answered. */
  get transactionId(): TransactionRef | undefined {
    return this.#s.current?.transactionId;
  }
  /** Whether a transaction is still watched (its result, or a late one, may still come) or a refund followed. */
  get watching(): boolean {
    const s = this.#s;
    return (
      s.ledger.refunds.following ||
      (s.current !== undefined && s.watcher.watching(s.current.transactionId)) ||
      s.ledger.leftBehind().some((transactionId) => s.watcher.watching(transactionId))
    );
  }
  /** The session's transactions, oldest first: those it left behind (replaced or cancelled), then the current one. */
  get transactions(): SessionTransaction[] {
    return sessionTransactions(this.#s);
  }
  /** Every refund answered, oldest first, each as last known. */
  get refunds(): RefundRecord[] {
    return this.#s.ledger.refunds.all();
  }
  /** The providers from the last provider list. */
  get providers(): readonly Provider[] {
    return this.#s.providers;
  }
  /** Whether wallet pay is the customer's default method (from the provider list). */
  get walletPayIsDefault(): boolean {
    return this.#s.walletPayIsDefault;
  }
  /** totalAmount of the current basket, in kopecks. */
  get totalAmount(): number {
    return this.#s.totalAmount;
  }

  /** What must be kept to carry the session on after a restart (`restore` option). */
  snapshot(): PaymentSessionSnapshot {
    return snapshot(this.#s);
  }

  /**
   * Asks /status for the current transaction now (rather than at the next
   * poll), e.g. after a restart; the answer is handled like any other state.
   */
  refresh(): Promise<TransactionState | undefined> {
    return refresh(this.#s);
  }

  /** Listens to one type of event; returns the unsubscribe. */
  on<T extends PaymentSessionEvent['type']>(type: T, listener: (event: PaymentSessionEventOf<T>) => void): () => void {
    return this.#s.events.on(type, listener);
  }

  /**
   * Part A step 2 and Part B: asks for the providers. None available:
   * `unavailable` (with `showProviderMessages`). walletPayIsDefault: the
   * checkout goes out at once (`pending`). Otherwise `offered`
   * (`offerWalletPay`): the operator asks the customer, then calls `pay()`.
   */
  start(): Promise<PaymentPhase> {
    return start(this.#s);
  }

  /** The operator triggers the checkout (walletPayIsDefault false, the customer agreed). */
  pay(providerId?: string): Promise<CheckoutResponse> {
    return checkout.pay(this.#s, providerId);
  }

  /**
   * Resolves with the current payment's result (succeeded, rejected,
   * cancelled, expired), from a webhook or polling. A basket change meanwhile
   * is followed: it resolves with the replacement's result.
   */
  waitForResult({ signal }: { signal?: AbortSignal } = {}): Promise<TransactionState> {
    return checkout.waitForResult(this.#s, { signal });
  }

  /**
   * The customer changed the basket. After the checkout: tell the customer not
   * to confirm, cancel the invoice, send an updated checkout with a new
   * requestId and the same card session. Before it: just the new basket.
   */
  changeBasket(basket: Basket): Promise<CheckoutResponse | undefined> {
    return checkout.changeBasket(this.#s, basket);
  }

  /**
   * The customer cancels the purchase (confirmed or not, no result yet).
   * Resolves with the transaction's state; if the bank had already taken the
   * money, rejects with `ALREADY_PAID` (phase `succeeded`: refund it). A bank
   * answer after the cancellation comes as `lateResult`.
   */
  cancel(): Promise<TransactionState> {
    return checkout.cancel(this.#s);
  }

  /**
   * After a declined, cancelled-in-app or expired result: an updated checkout with a new requestId and the same card
   * session.
   */
  retry(): Promise<CheckoutResponse> {
    return checkout.retry(this.#s);
  }

  /**
   * After `OUTCOME_UNKNOWN`: the same /checkout again (profile 'kit': /status by requestId first), never a new
   * requestId.
   */
  recover(): Promise<CheckoutResponse> {
    return checkout.recover(this.#s);
  }

  /**
   * Refunds a paid transaction (all of it, or `amount` kopecks, or `items`):
   * the current one, or `transactionId`, one the session left behind that the
   * bank paid late (`lateResult`). Partial refunds go on until the paid amount
   * is used up; phase `refunded` only then. A refundId already answered
   * answers that refund again, as last known, without a call (the same
   * refundId for another refund: IDEMPOTENCY_CONFLICT); a repeat after no
   * answer reuses the refundId (profile 'kit'; a 'document' client sends
   * none). A refund answered pending is followed until it settles (each
   * change comes as a `refund` event). The first refund given back closes the
   * card session: `rescanNeeded` (REFUNDED), and a new payment is a new session.
   */
  refund(part: RefundPart = {}): Promise<RefundResponse> {
    return refund(this.#s, part);
  }

  /**
   * Sends the fiscal receipt of the paid transaction; the service forwards it to the app. `receiptId` (profile
   * `'kit'`): a repeat with it after a lost answer is not forwarded again.
   */
  sendReceipt(receipt: Record<string, unknown>, receiptId?: string): Promise<ReceiptResponse> {
    return sendReceipt(this.#s, receipt, receiptId);
  }

  /** The desk falls back to another payment method; an open invoice is cancelled first. */
  abandon(): Promise<void> {
    return checkout.abandon(this.#s);
  }

  /**
   * Stops waiting and polling; pending `waitForResult` calls reject with
   * SESSION_OVER. Call it when the sale is closed: until then a cancelled or
   * abandoned payment stays watched, so a late bank answer still comes as `lateResult`.
   */
  close(): void {
    this.#s.watcher.close();
    this.#s.ledger.refunds.close();
    this.#s.ledger.fail(new PaymentSessionError('SESSION_OVER', 'the payment session was closed'));
  }
}

/**
 * Starts a payment session for one scanned card and basket.
 *
 * @example
 * const session = createPaymentSession({ client, cardSession, basket, rescan: () => till.rescan() });
 * session.on('showProviderMessages', (e) => ui.show(e.messages));
 * if ((await session.start()) === 'offered' && (await ui.customerAgrees())) await session.pay();
 * const result = await session.waitForResult();
 */
export function createPaymentSession(options: PaymentSessionOptions): PaymentSession {
  return new PaymentSession(options);
}
