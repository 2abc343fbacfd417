import { randomUUID } from 'node:crypto';
import type { PaymentView, StartPayment } from '../../contracts/cashdesk-payments.js';
import { migrate } from '../../db/index.js';
import { createTransactionUpdates, type TransactionUpdates } from '../../pay/updates.js';
import type { Payments } from './api.js';
import { Coordination } from './coordination.js';
import { DrivenPayments } from './driven.js';
import { notFound, PaymentsError } from './errors.js';
import type { UpdateListener } from './feed.js';
import type { RecordOf } from './intent-audit.js';
import type { IntentHandlers, IntentName, IntentParams, IntentResult } from './intents.js';
import { Leases } from './leases.js';
import type { CashDeskPaymentsOptions } from './options.js';
import { paymentMigrations } from './migrations.js';
import { paymentsWebhookHandler } from './payments-webhook.js';
import { sendReceiptOnce } from './receipt-once.js';
import { keyOf, type PaymentKey } from './rows.js';
import { scanForPayment } from './scan-policy.js';
import { PaymentStore } from './store.js';
import { TillFeedRelay } from './till-relay.js';
import type { TillPayment } from './till-payment.js';
import { TillPaymentFactory } from './till-payment-factory.js';

/**
 * The payments the cash desk server runs for its tills: one payment session (src/pay) per till payment, run on the
 * till's behalf. A till only sends intents (start, checkout, cancel, ...) and is told every phase change and session
 * event through `subscribe`. Payments are rows, each driven by the instance holding its lease (see {@link Leases});
 * what happened to a payment is a row per event, written with its state before the till is told. Any instance takes
 * any till's intent: it claims the payment, or has it handed over. Transports call this; it imports none of them.
 * Each intent's handler is the method of its name.
 */
export class CashDeskPayments implements Payments, IntentHandlers {
  readonly #options: CashDeskPaymentsOptions;
  readonly #store: PaymentStore;
  readonly #leases: Leases;
  readonly #updates: TransactionUpdates = createTransactionUpdates();
  readonly #driven: DrivenPayments;
  readonly #tills: TillFeedRelay;
  readonly #starting = new Map<string, Promise<PaymentView>>();
  readonly #instance = randomUUID();
  readonly #clock: () => number;
  readonly #newId: () => string;
  readonly #coordination: Coordination;
  readonly #payments: TillPaymentFactory;
  #closed = false;

  constructor(options: CashDeskPaymentsOptions) {
    this.#options = options;
    const lease = { owner: this.#instance, ttlMs: options.leaseMs ?? 5_000 };
    this.#store = new PaymentStore(options.db, lease);
    this.#leases = new Leases(options.db, { ...lease, alone: options.openChannel === undefined });
    this.#clock = options.clock ?? Date.now;
    this.#newId = options.newId ?? randomUUID;
    this.#driven = new DrivenPayments({
      store: this.#store,
      leases: this.#leases,
      updates: this.#updates,
      restore: (stored) => this.#payments.restore(stored),
      hint: (hint) => this.#coordination.hint(hint),
      handoffTimeoutMs: options.handoffTimeoutMs ?? 15_000,
      alone: options.openChannel === undefined,
      onError: (error, what) => this.#error(error, what),
      ...(options.onOwnership === undefined ? {} : { owned: options.onOwnership }),
    });
    this.#tills = new TillFeedRelay({ store: this.#store, onError: (error, what) => this.#error(error, what) });
    this.#coordination = new Coordination({
      instance: this.#instance,
      store: this.#store,
      driven: this.#driven,
      tills: this.#tills,
      updates: this.#updates,
      openChannel: options.openChannel,
      adoptIntervalMs: options.adoptIntervalMs ?? 2_000,
      renewIntervalMs: Math.max(50, Math.floor(this.#leases.ttlMs / 3)),
      onError: (error, what) => this.#error(error, what),
    });
    this.#payments = new TillPaymentFactory(options, {
      updates: this.#updates,
      clock: this.#clock,
      store: this.#store,
      tills: this.#tills,
      coordination: this.#coordination,
      driven: this.#driven,
      onError: (error, what) => this.#error(error, what),
    });
  }

  /** How many payments this instance holds in memory (those it drives); payments at rest are not kept. */
  get inMemory(): number {
    return this.#driven.size;
  }

  /** Migrates the tables, opens the shared channel, and adopts every payment whose driver is gone. */
  async init(): Promise<void> {
    await migrate(this.#options.db, 'cashdesk-payments', paymentMigrations);
    await this.#coordination.start();
  }

  /** Runs the intent `name`: its handler, the method of that name (see `PAYMENT_INTENTS`). */
  intent<N extends IntentName>(name: N, tillId: string, params: IntentParams<N>): Promise<IntentResult<N>> {
    const handler = (this as IntentHandlers)[name] as (t: string, p: IntentParams<N>) => Promise<IntentResult<N>>;
    return handler.call(this, tillId, params);
  }

  /**
   * `pay.start`: verifies `fullBarcode` (CARDSESSION_AVAILABLE only) or takes `cardSession`, stores the payment and
   * asks for the providers; checks out at once when walletPayIsDefault. A known `paymentId` answers that payment.
   */
  async start(tillId: string, input: StartPayment): Promise<PaymentView> {
    this.#open();
    const paymentId = input.paymentId ?? this.#newId();
    // The same paymentId twice at once on this instance: the second waits for the first and answers its payment.
    const k = keyOf({ tillId, paymentId });
    const starting = this.#starting.get(k);
    if (starting !== undefined) {
      return starting.then(
        () => this.get(tillId, { paymentId }),
        () => this.start(tillId, { ...input, paymentId }),
      );
    }
    const started = this.#start(tillId, paymentId, input).finally(() => this.#starting.delete(k));
    this.#starting.set(k, started);
    return started;
  }

  async #start(tillId: string, paymentId: string, input: StartPayment): Promise<PaymentView> {
    const known = await this.#known({ tillId, paymentId });
    if (known !== undefined) return known;
    let cardSession = input.cardSession;
    let cardNumber: string | undefined;
    if (input.fullBarcode !== undefined)
      ({ cardSession, cardNumber } = await scanForPayment(this.#options.verify, tillId, input.fullBarcode, undefined));
    const payment = this.#payments.create({
      tillId,
      paymentId,
      ...(cardNumber === undefined ? {} : { cardNumber }),
      receiptSent: false,
      createdAt: new Date(this.#clock()),
      cardSession: cardSession!,
      basket: input.basket,
      epoch: 1,
      seq: 0,
    });
    if (this.#options.writeBehind === true) {
      // Alone on a database that dies with the process: this instance's #known and #starting decide, the row follows.
      payment.writeFirst(this.#store.insert(payment.insertion()));
    } else if (!(await this.#store.insert(payment.insertion()))) {
      payment.close(); // lost a race with the same paymentId: that one is the payment
      return (await this.#known({ tillId, paymentId }))!;
    }
    this.#driven.add(payment);
    return payment.run(() => payment.session.start());
  }

  /** `pay.checkout`: the operator checks out (walletPayIsDefault false, the customer agreed). */
  checkout(tillId: string, { paymentId }: IntentParams<'checkout'>): Promise<PaymentView> {
    return this.#intent({ tillId, paymentId }, (p) => p.session.pay());
  }

  /** `pay.get`: the payment as last stored (or as this instance runs it). */
  async get(tillId: string, { paymentId }: IntentParams<'get'>): Promise<PaymentView> {
    const view = await this.#known({ tillId, paymentId });
    if (view === undefined) throw notFound(paymentId);
    return view;
  }

  /** `pay.changeBasket`: after the checkout, tell the customer not to confirm, cancel, send an updated checkout. */
  changeBasket(tillId: string, { paymentId, basket }: IntentParams<'changeBasket'>): Promise<PaymentView> {
    return this.#intent({ tillId, paymentId }, (p) => p.session.changeBasket(basket));
  }

  /** `pay.cancel`: the customer cancels before the result (ALREADY_PAID when the bank was first: refund it). */
  cancel(tillId: string, { paymentId }: IntentParams<'cancel'>): Promise<PaymentView> {
    return this.#intent({ tillId, paymentId }, (p) => p.session.cancel());
  }

  /**
   * `pay.retry`: an updated checkout after an unsuccessful result; after `unknown`, the same requestId again;
   * in `new` (the provider list got no answer), the provider list again.
   */
  retry(tillId: string, { paymentId }: IntentParams<'retry'>): Promise<PaymentView> {
    return this.#intent({ tillId, paymentId }, (p) => {
      const { session } = p;
      // `new`: the provider list got no answer (the Pay API or the database was away): ask for it again.
      if (session.phase === 'new') return session.start();
      return session.phase === 'unknown' ? session.recover() : session.retry();
    });
  }

  /** `pay.rescan`: the new scan the payment waits for (same card), verified here. */
  async rescan(tillId: string, { paymentId, fullBarcode }: IntentParams<'rescan'>): Promise<PaymentView> {
    this.#open();
    const payment = await this.#driven.drive({ tillId, paymentId });
    if (!payment.awaitingRescan) {
      throw new PaymentsError(
        'NO_RESCAN_PENDING',
        `payment ${paymentId} is not waiting for a rescan (phase ${payment.session.phase})`,
      );
    }
    const { cardSession } = await scanForPayment(this.#options.verify, tillId, fullBarcode, payment.cardNumber);
    return payment.run(() => payment.rescanned(cardSession));
  }

  /** `pay.refund`: all, `amount` or `items`, of the current transaction or `transactionId`; idempotent by refundId. */
  refund(tillId: string, params: IntentParams<'refund'>): Promise<PaymentView> {
    const { paymentId, ...part } = params;
    const audit = this.#options.audit?.recordOf('refund', tillId, params);
    return this.#intent({ tillId, paymentId }, (p) => p.session.refund(part), audit);
  }

  /**
   * `pay.receipt`: forwards the fiscal receipt at most once (see {@link sendReceiptOnce}); the sale is then closed
   * (not sent again on reconnection).
   */
  receipt(tillId: string, { paymentId, receipt }: IntentParams<'receipt'>): Promise<PaymentView> {
    return this.#intent({ tillId, paymentId }, (p) => sendReceiptOnce(p, receipt, this.#options.client.profile));
  }

  /** `pay.abandon`: the desk falls back to another method; an open invoice is cancelled first. */
  abandon(tillId: string, { paymentId }: IntentParams<'abandon'>): Promise<PaymentView> {
    return this.#intent({ tillId, paymentId }, async (p) => {
      await p.dropRescan();
      await p.session.abandon();
    });
  }

  /** `pay.list`: the till's payments, most recent first (at most 200), optionally in one phase. */
  async list(tillId: string, { phase }: IntentParams<'list'>): Promise<IntentResult<'list'>> {
    this.#open();
    await this.caughtUp(tillId);
    return { payments: (await this.#store.list(tillId, phase)).map((r) => r.view) };
  }

  /**
   * `pay.events`: a payment's events after `afterSeq` from its kept history, in order; when that history no longer
   * reaches back to `afterSeq` (or `afterSeq` is 0 or absent), its current state restated first.
   */
  async events(tillId: string, { paymentId, afterSeq = 0 }: IntentParams<'events'>): Promise<IntentResult<'events'>> {
    this.#open();
    await this.caughtUp(tillId);
    const history = await this.#tills.history({ tillId, paymentId }, afterSeq);
    if (history === undefined) throw notFound(paymentId);
    return { events: history };
  }

  /**
   * Sends a till's updates to `listener` (`pay.sessionUpdated`), first the current state of each of its open
   * payments: a till that reconnects (to this instance or another) learns where each payment stands.
   */
  async subscribe(tillId: string, listener: UpdateListener): Promise<() => void> {
    if (!this.#closed) await this.caughtUp(tillId);
    return this.#tills.subscribe(tillId, listener, this.#closed);
  }

  /** The `POST /webhooks/pay` handler, or undefined without a secret (see {@link paymentsWebhookHandler}). */
  webhookHandler(): ((request: Request) => Promise<Response>) | undefined {
    const parts = { updates: this.#updates, clock: this.#clock, store: this.#store, coordination: this.#coordination };
    return paymentsWebhookHandler(this.#options, parts);
  }

  /** Stops driving payments (their rows stay; their leases are given up for another instance to take at once). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#coordination.stop();
    await this.#driven.close();
    await this.#coordination.closeChannel();
  }

  #open(): void {
    if (this.#closed)
      throw new PaymentsError('PAYMENTS_CLOSED', 'the server is stopping: retry on another instance or later');
  }

  async #intent(key: PaymentKey, op: (p: TillPayment) => Promise<unknown>, audit?: RecordOf): Promise<PaymentView> {
    this.#open();
    for (;;) {
      const payment = await this.#driven.drive(key);
      // Given up or moved while this intent waited its turn: the row is the payment now.
      if (!payment.closed) return payment.run(() => op(payment), audit);
    }
  }

  /** With writes behind: waits until the rows of the till's (every till's) payments hold what was told. */
  protected async caughtUp(tillId?: string): Promise<void> {
    if (this.#options.writeBehind !== true) return;
    await this.#driven.writesDone(tillId);
  }

  async #known(key: PaymentKey): Promise<PaymentView | undefined> {
    this.#open();
    const driven = this.#driven.get(key);
    if (driven !== undefined) return driven.view();
    return (await this.#store.find(key))?.record.view;
  }

  #error(error: unknown, what: string): void {
    this.#options.onError?.(error, what);
  }
}
