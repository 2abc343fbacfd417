import { randomUUID } from 'node:crypto';
import type { CheckoutRequest, CheckoutResponse, ReceiptResponse, RefundRequest, RefundResponse, TransactionState } from '../contracts/pay/bodies.js';
import { purchaseAmount } from '../contracts/pay/items.js';
import { TRANSITIONS } from '../contracts/pay/statuses.js';
import { realSleep, type RetryPolicy } from './backoff.js';
import { PayError, PaymentSessionError } from './errors.js';
import { type RecoveredCheckout, submitCheckout } from './recovery.js';
import type {
  Basket, PaymentPhase, PaymentSessionEvent, PaymentSessionEventOf, PaymentSessionOptions, PaymentSessionSnapshot, Provider, RescanReason,
} from './session-types.js';
import { RESULT_STATUSES, TransactionLedger } from './ledger.js';
import { Listeners } from './listeners.js';
import { checkSessionOptions } from './session-options.js';
import { TransactionWatcher } from './watcher.js';

const OVER: ReadonlySet<PaymentPhase> = new Set(['unavailable', 'refunded', 'blocked', 'abandoned']);

/**
 * One customer's wallet payment at a cash desk, through Part A and Part B of
 * the payment scenario and every recovery rule of the document's section 7.
 * Create it with {@link createPaymentSession}; read `phase`, listen with `on`.
 */
export class PaymentSession {
  readonly #o: Required<Pick<PaymentSessionOptions, 'client' | 'rescan' | 'availability' | 'maxRescans' | 'newId' | 'sleep' | 'random'>> & PaymentSessionOptions;
  readonly #recovery: RetryPolicy;
  readonly #watcher: TransactionWatcher;
  readonly #events: Listeners<PaymentSessionEvent>;
  readonly #ledger = new TransactionLedger();
  #phase: PaymentPhase = 'new';
  #busy = false;
  #cardSession: string;
  #basket: Basket;
  #requestId: string;
  #providerId: string | undefined;
  #current: CheckoutResponse | undefined;
  #refundId: string | undefined;
  #providers: Provider[] = [];
  #walletPayIsDefault = false;
  #stage: PaymentSessionSnapshot['stage'] = 'availability';

  constructor(options: PaymentSessionOptions) {
    checkSessionOptions(options);
    this.#o = {
      availability: 'task', maxRescans: 1, newId: randomUUID, sleep: realSleep, random: Math.random, ...options,
    };
    this.#recovery = { max: options.recovery?.rounds ?? 3, baseMs: options.recovery?.baseMs ?? 500, maxMs: options.recovery?.maxMs ?? 5_000 };
    this.#events = new Listeners(options.onEvent);
    this.#cardSession = options.cardSession;
    this.#basket = options.basket;
    this.#requestId = this.#o.newId();
    this.#watcher = new TransactionWatcher({
      client: options.client,
      updates: options.updates,
      pollIntervalMs: options.pollIntervalMs ?? (options.updates ? 10_000 : 2_000),
      sleep: this.#o.sleep,
      onState: (state) => this.#observe(state),
    });
    if (options.restore) this.#restore(options.restore);
  }

  /** Where the session stands. */
  get phase(): PaymentPhase { return this.#phase; }
  /** The card session in use (a rescan replaces it). */
  get cardSession(): string { return this.#cardSession; }
  /** The requestId of the current (or next) checkout. */
  get requestId(): string { return this.#requestId; }
  /** The current transaction's last known state, once there is one. */
  get transaction(): TransactionState | undefined { return this.#current && this.#ledger.get(this.#current.transactionId); }
  /** The current transaction's id, once /checkout answered. */
  get transactionId(): string | undefined { return this.#current?.transactionId; }
  /** Whether a transaction of the session is still watched: its result, or a late one, may still come. */
  get watching(): boolean {
    return (this.#current !== undefined && this.#watcher.watching(this.#current.transactionId))
      || this.#ledger.leftBehind().some((transactionId) => this.#watcher.watching(transactionId));
  }
  /** The providers from the last provider list. */
  get providers(): readonly Provider[] { return this.#providers; }
  /** Whether wallet pay is the customer's default method (from the provider list). */
  get walletPayIsDefault(): boolean { return this.#walletPayIsDefault; }
  /** totalAmount of the current basket, in kopecks. */
  get totalAmount(): number { return purchaseAmount(this.#basket.items) - (this.#basket.discountAmount ?? 0); }

  /** What must be kept to carry the session on after a restart (`restore` option). */
  snapshot(): PaymentSessionSnapshot {
    const current = this.#current;
    return {
      phase: this.#phase, stage: this.#stage, requestId: this.#requestId, cardSession: this.#cardSession, basket: this.#basket,
      ...(this.#providerId ? { providerId: this.#providerId } : {}),
      providers: this.#providers, walletPayIsDefault: this.#walletPayIsDefault,
      ...(current ? { transaction: this.#ledger.get(current.transactionId) ?? current } : {}),
      ...(this.#refundId ? { refundId: this.#refundId } : {}),
      left: this.#ledger.leftBehind(),
    };
  }

  /**
   * Asks /status for the current transaction now (rather than at the next
   * poll), e.g. after a restart; the answer is handled like any other state.
   */
  async refresh(): Promise<TransactionState | undefined> {
    if (!this.#current) return undefined;
    const state = await this.#o.client.status({ transactionId: this.#current.transactionId });
    this.#observe(state);
    return this.transaction;
  }

  /** Listens to one type of event; returns the unsubscribe. */
  on<T extends PaymentSessionEvent['type']>(type: T, listener: (event: PaymentSessionEventOf<T>) => void): () => void {
    return this.#events.on(type, listener);
  }

  /**
   * Part A step 2 and Part B: asks for the providers. None available:
   * `unavailable` (with `showProviderMessages`). walletPayIsDefault: the
   * checkout goes out at once (`pending`). Otherwise `offered`
   * (`offerWalletPay`): the operator asks the customer, then calls `pay()`.
   */
  start(): Promise<PaymentPhase> {
    return this.#exclusive(['new'], async () => {
      this.#stage = 'availability';
      this.#setPhase('checking');
      let answer;
      for (let rescans = 0; ; rescans++) {
        try {
          answer = this.#o.availability === 'info'
            ? await this.#o.client.availability({ cardSession: this.#cardSession })
            : await this.#o.client.availabilityTask({
              requestId: this.#requestId, cardSession: this.#cardSession, items: this.#basket.items,
              discountAmount: this.#basket.discountAmount ?? 0, totalAmount: this.totalAmount,
              ...(this.#o.offers ? { offers: this.#o.offers } : {}),
            });
          break;
        } catch (error) {
          if (error instanceof PayError && error.code === 'CARD_SESSION_INVALID' && rescans < this.#o.maxRescans) {
            await this.#rescan('CARD_SESSION_INVALID', 'new');
            this.#setPhase('checking');
            continue;
          }
          this.#refused(error, 'new');
          this.#requestId = this.#o.newId(); // a task may have been registered: never reuse its requestId
          throw error;
        }
      }
      this.#providers = answer.providers;
      this.#walletPayIsDefault = answer.walletPayIsDefault;
      this.#emit({ type: 'providers', walletPayIsDefault: answer.walletPayIsDefault, providers: answer.providers });
      const available = answer.providers.filter((p) => p.available);
      if (available.length === 0) {
        this.#setPhase('unavailable');
        this.#emit({
          type: 'showProviderMessages',
          messages: answer.providers.map((p) => ({ providerId: p.providerId, name: p.name, message: p.message ?? 'unavailable' })),
        });
        return this.#phase;
      }
      if (answer.walletPayIsDefault) {
        await this.#checkout(false, 'offered');
        return this.#phase;
      }
      this.#setPhase('offered');
      this.#emit({ type: 'offerWalletPay', providers: available });
      return this.#phase;
    });
  }

  /** The operator triggers the checkout (walletPayIsDefault false, the customer agreed). */
  pay(providerId?: string): Promise<CheckoutResponse> {
    return this.#exclusive(['offered'], () => {
      this.#providerId = providerId;
      return this.#checkout(false, 'offered');
    });
  }

  /**
   * Resolves with the current payment's result (succeeded, rejected,
   * cancelled, expired), from a webhook or polling. A basket change meanwhile
   * is followed: it resolves with the replacement's result.
   */
  waitForResult({ signal }: { signal?: AbortSignal } = {}): Promise<TransactionState> {
    const known = this.transaction;
    if ((this.#phase === 'succeeded' || this.#phase === 'unsuccessful') && known && RESULT_STATUSES.has(known.status)) return Promise.resolve(known);
    if (OVER.has(this.#phase) || this.#phase === 'new' || this.#phase === 'offered' || this.#phase === 'unknown') {
      return Promise.reject(new PaymentSessionError('SESSION_STATE', `waitForResult: no payment is under way (phase ${this.#phase})`));
    }
    return this.#ledger.wait(signal);
  }

  /**
   * The customer changed the basket. After the checkout: tell the customer not
   * to confirm, cancel the invoice, send an updated checkout with a new
   * requestId and the same card session. Before it: just the new basket.
   */
  changeBasket(basket: Basket): Promise<CheckoutResponse | undefined> {
    return this.#exclusive(['offered', 'pending', 'unsuccessful'], async () => {
      const from = this.#phase;
      if (from === 'pending') {
        this.#emit({ type: 'tellCustomerNotToConfirm', reason: 'BASKET_CHANGED' });
        await this.#cancelCurrent();
      }
      // Only now: while the old invoice stands, totalAmount describes it.
      this.#basket = basket;
      if (from === 'offered') return undefined;
      return this.#checkout(true, 'unsuccessful');
    });
  }

  /**
   * The customer cancels the purchase (confirmed or not, no result yet).
   * Resolves with the transaction's state; if the bank had already taken the
   * money, rejects with `ALREADY_PAID` (phase `succeeded`: refund it). A bank
   * answer after the cancellation comes as `lateResult`.
   */
  cancel(): Promise<TransactionState> {
    return this.#exclusive(['pending'], async () => {
      this.#emit({ type: 'tellCustomerNotToConfirm', reason: 'CANCELLING' });
      const state = await this.#cancelCurrent();
      this.#setPhase('unsuccessful');
      this.#ledger.settle(state);
      return state;
    });
  }

  /** After a declined, cancelled-in-app or expired result: an updated checkout with a new requestId and the same card session. */
  retry(): Promise<CheckoutResponse> {
    return this.#exclusive(['unsuccessful'], () => this.#checkout(true, 'unsuccessful'));
  }

  /** After `OUTCOME_UNKNOWN`: /status by requestId, then the same /checkout again (never a new requestId). */
  recover(): Promise<CheckoutResponse> {
    return this.#exclusive(['unknown'], () => this.#checkout(false, 'unknown'));
  }

  /**
   * Refunds the paid transaction (all of it, or `amount` kopecks, or `items`).
   * Idempotent: a repeat after no answer reuses the refundId. Afterwards the
   * card session is closed: `rescanNeeded` (REFUNDED), and a new payment is a new session.
   */
  refund({ refundId, ...part }: Pick<RefundRequest, 'amount' | 'items'> & { refundId?: string } = {}): Promise<RefundResponse> {
    return this.#exclusive(['succeeded', 'refunded'], async () => {
      if (refundId !== undefined) this.#refundId = refundId;
      this.#refundId ??= this.#o.newId();
      let answer: RefundResponse;
      try {
        await this.#o.checkpoint?.();
        answer = await this.#o.client.refund({ transactionId: this.#current!.transactionId, refundId: this.#refundId, ...part });
      } catch (error) {
        if (error instanceof PayError && !error.transient) this.#refundId = undefined;
        this.#refused(error, this.#phase);
        throw error;
      }
      this.#refundId = undefined;
      this.#ledger.refunded(answer.transactionId, answer.refundedAmount);
      if (this.#phase !== 'refunded') {
        this.#setPhase('refunded');
        this.#emit({ type: 'rescanNeeded', reason: 'REFUNDED' });
      }
      return answer;
    });
  }

  /** Sends the fiscal receipt of the paid transaction; the service forwards it to the app. */
  sendReceipt(receipt: Record<string, unknown>): Promise<ReceiptResponse> {
    return this.#exclusive(['succeeded', 'refunded'], () =>
      this.#o.client.receipt({ transactionId: this.#current!.transactionId, receipt }));
  }

  /** The desk falls back to another payment method; an open invoice is cancelled first. */
  abandon(): Promise<void> {
    return this.#exclusive(['offered', 'pending', 'unknown', 'unsuccessful'], async () => {
      if (this.#phase === 'pending') {
        this.#emit({ type: 'tellCustomerNotToConfirm', reason: 'CANCELLING' });
        await this.#cancelCurrent();
      }
      this.#setPhase('abandoned');
    });
  }

  /**
   * Stops waiting and polling; pending `waitForResult` calls reject with
   * SESSION_OVER. Call it when the sale is closed: until then a cancelled or
   * abandoned payment stays watched, so a late bank answer still comes as `lateResult`.
   */
  close(): void {
    this.#watcher.close();
    this.#ledger.fail(new PaymentSessionError('SESSION_OVER', 'the payment session was closed'));
  }

  // ---- internals -------------------------------------------------------

  /** Comes back from a snapshot where no call is in flight (see PaymentSessionSnapshot). */
  #restore(s: PaymentSessionSnapshot): void {
    this.#cardSession = s.cardSession;
    this.#basket = s.basket;
    this.#requestId = s.requestId;
    this.#providerId = s.providerId;
    this.#providers = s.providers;
    this.#walletPayIsDefault = s.walletPayIsDefault;
    this.#refundId = s.refundId;
    this.#stage = s.stage;
    for (const transactionId of s.left) this.#ledger.leave(transactionId);
    if (s.transaction) {
      const { transactionId, requestId, status } = s.transaction;
      this.#current = { transactionId, requestId, status };
      if ('statusClass' in s.transaction) this.#ledger.record(s.transaction);
    }
    let phase = s.phase;
    if (phase === 'checking' || (phase === 'rescanning' && s.stage === 'availability')) {
      // A task may have been registered under the old requestId: never reuse it.
      phase = 'new';
      this.#requestId = this.#o.newId();
    } else if (phase === 'checkout' || phase === 'rescanning') {
      phase = 'unknown';
    }
    this.#phase = phase;
    // A left-behind or cancelled payment may still be answered by the bank: keep watching it.
    for (const transactionId of s.left) this.#watcher.watch(transactionId);
    const status = this.transaction?.status ?? this.#current?.status;
    if (this.#current && (phase === 'pending' || (phase === 'unsuccessful' && status === 'cancelled'))) {
      this.#watcher.watch(this.#current.transactionId);
    }
  }

  async #exclusive<T>(allowed: readonly PaymentPhase[], run: () => Promise<T>): Promise<T> {
    if (this.#busy) throw new PaymentSessionError('SESSION_BUSY', `another operation is running (phase ${this.#phase})`);
    if (OVER.has(this.#phase)) throw new PaymentSessionError('SESSION_OVER', `the payment session is over (phase ${this.#phase})`);
    if (!allowed.includes(this.#phase)) {
      throw new PaymentSessionError('SESSION_STATE', `not allowed in phase ${this.#phase} (allowed: ${allowed.join(', ')})`);
    }
    this.#busy = true;
    try {
      return await run();
    } finally {
      this.#busy = false;
    }
  }

  /** A checkout with every recovery: rescan on a refused card session, status-first recovery on no answer. */
  async #checkout(fresh: boolean, onRefusal: PaymentPhase): Promise<CheckoutResponse> {
    for (let rescans = 0; ; rescans++) {
      if (fresh) this.#requestId = this.#o.newId();
      this.#stage = 'checkout';
      this.#setPhase('checkout');
      const body: CheckoutRequest = {
        requestId: this.#requestId, cardSession: this.#cardSession, items: this.#basket.items,
        discountAmount: this.#basket.discountAmount ?? 0, totalAmount: this.totalAmount,
        ...(this.#providerId ? { providerId: this.#providerId } : {}),
      };
      try {
        await this.#o.checkpoint?.();
        const answer = await submitCheckout(body, {
          client: this.#o.client, policy: this.#recovery, sleep: this.#o.sleep, random: this.#o.random,
          onStep: (step, error) => this.#emit({ type: 'recovering', step, requestId: body.requestId, error }),
        });
        this.#accept(answer);
        return answer;
      } catch (error) {
        if (error instanceof PayError && error.code === 'CARD_SESSION_INVALID' && rescans < this.#o.maxRescans) {
          await this.#rescan('CARD_SESSION_INVALID', onRefusal);
          fresh = true; // the document: a new requestId with the new card session
          continue;
        }
        if (error instanceof PaymentSessionError && error.code === 'OUTCOME_UNKNOWN') this.#setPhase('unknown');
        else this.#refused(error, onRefusal);
        throw error;
      }
    }
  }

  #accept(answer: RecoveredCheckout): void {
    if (this.#current) this.#ledger.leave(this.#current.transactionId);
    this.#current = { transactionId: answer.transactionId, requestId: answer.requestId, status: answer.status };
    this.#setPhase('pending');
    this.#emit({ type: 'invoice', checkout: this.#current });
    if (answer.state) this.#observe(answer.state);
    if (this.#phase === 'pending') this.#watcher.watch(answer.transactionId);
  }

  /** Cancels the current transaction; it then counts as left behind (a late success is reported). */
  async #cancelCurrent(): Promise<TransactionState> {
    const { transactionId } = this.#current!;
    this.#ledger.leave(transactionId);
    let state: TransactionState;
    try {
      state = await this.#o.client.cancel({ transactionId }).catch((error: unknown) => {
        // Already final: the customer or the bank was first.
        if (error instanceof PayError && error.code === 'INVALID_STATE') return this.#o.client.status({ transactionId });
        throw error;
      });
    } catch (error) {
      this.#ledger.leave(transactionId, false);
      this.#refused(error, this.#phase);
      throw error;
    }
    if (state.status === 'succeeded') {
      // Not left behind after all: it is the session's result (observing it settles the waits).
      this.#ledger.leave(transactionId, false);
      this.#observe(state);
      this.#setPhase('succeeded');
      throw new PaymentSessionError('ALREADY_PAID', `transaction ${transactionId} succeeded before it could be cancelled: refund it`);
    }
    this.#observe(state);
    // A cancelled payment stays watched: the bank may still answer it (a lateResult).
    return state;
  }

  async #rescan(reason: RescanReason, onFailure: PaymentPhase): Promise<void> {
    this.#setPhase('rescanning');
    this.#emit({ type: 'rescanNeeded', reason });
    try {
      this.#cardSession = await this.#o.rescan(reason);
    } catch (cause) {
      this.#setPhase(onFailure);
      throw new PaymentSessionError('RESCAN_FAILED', 'the till gave no new card session', { cause });
    }
  }

  /** A refused call: a refused token ends the session (document section 7, first row); anything else goes back. */
  #refused(error: unknown, back: PaymentPhase): void {
    if (error instanceof PayError && error.code === 'TOKEN_INVALID') {
      this.#setPhase('blocked');
      this.#emit({ type: 'cardRefused', error });
      this.#watcher.close();
      this.#ledger.fail(new PaymentSessionError('SESSION_OVER', 'the Pay API refused the token', { cause: error }));
      return;
    }
    this.#setPhase(back);
  }

  /** Every state from a webhook, a poll or an answer: stale or repeated ones are dropped. */
  #observe(state: TransactionState): void {
    if (!this.#ledger.record(state)) return;
    this.#emit({ type: 'transaction', state });
    const current = this.#current?.transactionId === state.transactionId;
    // No move is left from succeeded, rejected or expired; a cancelled payment may still be answered by the bank.
    if (TRANSITIONS[state.status].length === 0) this.#watcher.unwatch(state.transactionId);
    if (this.#ledger.isLeft(state.transactionId) || (current && this.#phase === 'unsuccessful')) {
      if (state.status === 'succeeded') {
        this.#emit({ type: 'lateResult', state });
        if (current && this.#phase === 'unsuccessful') this.#setPhase('succeeded');
      }
      return;
    }
    if (!current || !RESULT_STATUSES.has(state.status)) return;
    if (this.#phase === 'pending') this.#setPhase(state.status === 'succeeded' ? 'succeeded' : 'unsuccessful');
    this.#ledger.settle(state);
  }

  #setPhase(to: PaymentPhase): void {
    const from = this.#phase;
    if (from === to) return;
    this.#phase = to;
    this.#emit({ type: 'phase', from, to });
  }

  #emit(event: PaymentSessionEvent): void {
    this.#events.emit(event);
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
