import { randomUUID } from 'node:crypto';
import type { BarcodeVerification } from '../../contracts/barcode.js';
import type { PaymentBasket, PaymentView, SessionUpdate, StartPayment } from '../../contracts/cashdesk-payments.js';
import type { TransactionState } from '../../contracts/pay/bodies.js';
import type { RefundRequest } from '../../contracts/pay/bodies.js';
import { migrate, type Database, type SharedChannel } from '../../db/index.js';
import type { Sleep } from '../../pay/backoff.js';
import type { PayClient } from '../../pay/client.js';
import { createTransactionUpdates, type TransactionUpdates } from '../../pay/updates.js';
import { createPayWebhookHandler } from '../../pay/webhook.js';
import type { Payments } from './api.js';
import { PaymentsError } from './errors.js';
import { TillFeed, updateOf, type UpdateListener } from './feed.js';
import { paymentMigrations } from './migrations.js';
import { isOpen, type PaymentRecord } from './record.js';
import { PaymentStore } from './store.js';
import { TillPayment } from './till-payment.js';

/** Options of {@link CashDeskPayments}. */
export interface CashDeskPaymentsOptions {
  /** The Pay API client (signing with the server's verifier). */
  client: PayClient;
  /** Where payment rows live (migrated by `init()`). */
  db: Database;
  /** The cash desk service's verification (one scan serves loyalty and payment). */
  verify(fullBarcode: string): Promise<BarcodeVerification>;
  /** `whsec_...`: `webhookHandler()` verifies `transaction.updated` with it; without it the status is only polled. */
  webhookSecret?: string;
  /** /status polling while a payment waits. Default: the session's (2000 ms, 10 000 ms with a webhook). */
  pollIntervalMs?: number;
  /**
   * Several instances on one PostgreSQL: opens the shared channel (LISTEN/NOTIFY
   * and advisory locks) with the listener given. Without it the instance is alone.
   */
  openChannel?: (onMessage: (payload: string) => void) => Promise<SharedChannel>;
  /** With a channel: how often open payments nobody drives are adopted. Default 2000 ms. */
  adoptIntervalMs?: number;
  /** Now, in ms. Default `Date.now`. */
  clock?: () => number;
  /** New paymentIds, requestIds and refundIds. Default `randomUUID`. */
  newId?: () => string;
  sleep?: Sleep;
  /**
   * Writes go behind the till's updates and the Pay calls instead of before
   * them (default false). Only for a database that does not outlive the
   * process (PGlite in memory): there, writing first protects nothing and
   * costs each payment a write's wait per phase.
   */
  writeBehind?: boolean;
  /** Failures nobody is waiting for (a background write, a relay). */
  onError?: (error: unknown, what: string) => void;
}

/** A message between instances over the shared channel. */
type Relay =
  | { i: string; k: 'u'; t: string; u: SessionUpdate }
  | { i: string; k: 's'; s: TransactionState };

// Till ids never hold '/' ([A-Za-z0-9._-]), and PostgreSQL text cannot hold NUL: the lock keys are this text.
const key = (tillId: string, paymentId: string) => `${tillId}/${paymentId}`;

/**
 * The payments the cash desk server runs for its tills (issue 11, DESIGN.md
 * section 7): one payment session (src/pay) per till payment, run on the
 * till's behalf. A till only sends intents (start, checkout, cancel, ...) and
 * is told every phase change and session event through `subscribe`. Payments
 * are rows in the server's database, written before each Pay call's effect
 * is acted on (behind it with `writeBehind`); `init()` carries on every open payment after a restart. With
 * PostgreSQL and a shared channel, instances relay updates to the instance a
 * till is connected to, and one instance drives each payment at a time (an
 * advisory lock held by its channel connection, released if it dies).
 * Transports call this; it imports none of them.
 */
export class CashDeskPayments implements Payments {
  readonly #o: CashDeskPaymentsOptions;
  readonly #store: PaymentStore;
  readonly #feed = new TillFeed();
  readonly #updates: TransactionUpdates = createTransactionUpdates();
  readonly #driven = new Map<string, TillPayment>();
  readonly #loading = new Map<string, Promise<TillPayment>>();
  readonly #starting = new Map<string, Promise<PaymentView>>();
  readonly #background = new Set<Promise<unknown>>();
  readonly #instance = randomUUID();
  readonly #clock: () => number;
  readonly #newId: () => string;
  #channel: SharedChannel | undefined;
  #adopter: NodeJS.Timeout | undefined;
  #adopting: Promise<void> | undefined;
  #closed = false;

  constructor(options: CashDeskPaymentsOptions) {
    this.#o = options;
    this.#store = new PaymentStore(options.db);
    this.#clock = options.clock ?? Date.now;
    this.#newId = options.newId ?? randomUUID;
  }

  /** How many payments this instance holds in memory (those it drives); ended ones at rest are not kept. */
  get inMemory(): number {
    return this.#driven.size;
  }

  /** Migrates the table, opens the shared channel, and carries on every open payment nobody else drives. */
  async init(): Promise<void> {
    await migrate(this.#o.db, 'cashdesk-payments', paymentMigrations);
    if (this.#o.openChannel) {
      this.#channel = await this.#o.openChannel((payload) => this.#relayed(payload));
      this.#adopter = setInterval(() => void this.#adoptAll(), this.#o.adoptIntervalMs ?? 2_000);
      this.#adopter.unref();
    }
    await this.#adoptAll();
  }

  /**
   * `pay.start`: verifies `fullBarcode` (CARDSESSION_AVAILABLE only) or takes
   * `cardSession`, stores the payment and asks for the providers; checks out
   * at once when walletPayIsDefault. A known `paymentId` answers that payment.
   */
  async start(tillId: string, input: StartPayment): Promise<PaymentView> {
    this.#open();
    const paymentId = input.paymentId ?? this.#newId();
    // The same paymentId twice at once on this instance: the second waits for the first and answers its payment.
    const k = key(tillId, paymentId);
    const starting = this.#starting.get(k);
    if (starting !== undefined) return starting.then(() => this.get(tillId, paymentId), () => this.start(tillId, { ...input, paymentId }));
    const started = this.#start(tillId, paymentId, input).finally(() => this.#starting.delete(k));
    this.#starting.set(k, started);
    return started;
  }

  async #start(tillId: string, paymentId: string, input: StartPayment): Promise<PaymentView> {
    const known = await this.#known(tillId, paymentId);
    if (known !== undefined) return known;
    let cardSession = input.cardSession;
    let cardNumber: string | undefined;
    if (input.fullBarcode !== undefined) ({ cardSession, cardNumber } = await this.#scan(input.fullBarcode, undefined));
    const payment = this.#payment({
      tillId, paymentId, ...(cardNumber === undefined ? {} : { cardNumber }), receiptSent: false,
      createdAt: new Date(this.#clock()), cardSession: cardSession!, basket: input.basket,
    });
    // Locked before the row exists: another instance adopting open rows must never take a payment being started.
    if (!(await this.#lock(tillId, paymentId))) throw this.#elsewhere(paymentId);
    if (this.#o.writeBehind === true) {
      // Alone on a database that dies with the process: this instance's #known and #starting decide, the row follows.
      payment.writeFirst(this.#store.insert(payment.record()));
      this.#driven.set(key(tillId, paymentId), payment);
      return payment.run(() => payment.session.start());
    }
    if (!(await this.#store.insert(payment.record()))) {
      payment.close(); // lost a race with the same paymentId: that one is the payment
      await this.#channel?.unlock(key(tillId, paymentId));
      return (await this.#known(tillId, paymentId))!;
    }
    this.#driven.set(key(tillId, paymentId), payment);
    return payment.run(() => payment.session.start());
  }

  /** `pay.checkout`: the operator checks out (walletPayIsDefault false, the customer agreed). */
  checkout(tillId: string, paymentId: string): Promise<PaymentView> {
    return this.#intent(tillId, paymentId, (p) => p.session.pay());
  }

  /** `pay.get`: the payment as last stored (or as this instance runs it). */
  async get(tillId: string, paymentId: string): Promise<PaymentView> {
    const view = await this.#known(tillId, paymentId);
    if (view === undefined) throw notFound(paymentId);
    return view;
  }

  /** `pay.changeBasket`: after the checkout, tell the customer not to confirm, cancel, send an updated checkout. */
  changeBasket(tillId: string, paymentId: string, basket: PaymentBasket): Promise<PaymentView> {
    return this.#intent(tillId, paymentId, (p) => p.session.changeBasket(basket));
  }

  /** `pay.cancel`: the customer cancels before the result (ALREADY_PAID when the bank was first: refund it). */
  cancel(tillId: string, paymentId: string): Promise<PaymentView> {
    return this.#intent(tillId, paymentId, (p) => p.session.cancel());
  }

  /** `pay.retry`: an updated checkout after an unsuccessful result; after `unknown`, the same requestId again. */
  retry(tillId: string, paymentId: string): Promise<PaymentView> {
    return this.#intent(tillId, paymentId, (p) => (p.session.phase === 'unknown' ? p.session.recover() : p.session.retry()));
  }

  /** `pay.rescan`: the new scan the payment waits for (same card), verified here. */
  async rescan(tillId: string, paymentId: string, fullBarcode: string): Promise<PaymentView> {
    const payment = await this.#drive(tillId, paymentId);
    if (!payment.awaitingRescan) {
      throw new PaymentsError('NO_RESCAN_PENDING', `payment ${paymentId} is not waiting for a rescan (phase ${payment.session.phase})`);
    }
    const { cardSession } = await this.#scan(fullBarcode, payment.cardNumber);
    return payment.run(() => payment.rescanned(cardSession!));
  }

  /** `pay.refund`: all of it, `amount` kopecks, or `items`; idempotent by the till's refundId. */
  refund(tillId: string, paymentId: string, part: Pick<RefundRequest, 'refundId' | 'amount' | 'items'>): Promise<PaymentView> {
    return this.#intent(tillId, paymentId, (p) => p.session.refund(part));
  }

  /** `pay.receipt`: forwards the fiscal receipt; the sale is then closed (not sent again on reconnection). */
  receipt(tillId: string, paymentId: string, receipt: Record<string, unknown>): Promise<PaymentView> {
    return this.#intent(tillId, paymentId, async (p) => {
      await p.session.sendReceipt(receipt);
      p.receiptSent = true;
      await p.flush();
    });
  }

  /** `pay.abandon`: the desk falls back to another method; an open invoice is cancelled first. */
  abandon(tillId: string, paymentId: string): Promise<PaymentView> {
    return this.#intent(tillId, paymentId, async (p) => {
      await p.dropRescan();
      await p.session.abandon();
    });
  }

  /** `pay.list`: the till's payments, most recent first (at most 200), optionally in one phase. */
  async list(tillId: string, phase?: string): Promise<PaymentView[]> {
    this.#open();
    await this.#caughtUp(tillId);
    return (await this.#store.list(tillId, phase)).map((r) => r.view);
  }

  /** With writes behind: waits until the rows of the till's payments hold what the till has been told. */
  async #caughtUp(tillId: string): Promise<void> {
    if (this.#o.writeBehind !== true) return;
    await Promise.all([...this.#driven.values()].filter((p) => p.tillId === tillId).map((p) => p.writesDone()));
  }

  /**
   * Sends a till's updates to `listener` (`pay.sessionUpdated`), first the
   * current state of each of its open payments: a till that reconnects (to
   * this instance or another) learns where each payment stands. Returns the unsubscribe.
   */
  async subscribe(tillId: string, listener: UpdateListener): Promise<() => void> {
    const tell = (update: SessionUpdate) => {
      try {
        listener(update);
      } catch {
        // the connection's own trouble
      }
    };
    // Updates that come while the stored state is read are held until it is told: the read may have begun before
    // their write committed (another pool connection, another instance), and a stale phase must never come last.
    let held: SessionUpdate[] | undefined = [];
    const unsubscribe = this.#feed.subscribe(tillId, (update) => (held === undefined ? tell(update) : held.push(update)));
    let stored: PaymentRecord[] = [];
    try {
      if (!this.#closed) {
        await this.#caughtUp(tillId);
        stored = await this.#store.openOf(tillId);
      }
    } catch (error) {
      unsubscribe(); // the caller gets no unsubscribe to call
      throw error;
    }
    // A payment driven here is told as it stands now: with writes behind, its row may not have caught up.
    for (const record of stored) tell(updateOf(record.view));
    const newer = held;
    held = undefined;
    for (const update of newer) tell(update);
    return unsubscribe;
  }

  /**
   * The `POST /webhooks/pay` handler (Standard Webhooks, the configured
   * secret), or undefined without a secret. Verified states reach the
   * sessions here and, through the shared channel, on the other instances.
   */
  webhookHandler(): ((request: Request) => Promise<Response>) | undefined {
    const secret = this.#o.webhookSecret;
    if (secret === undefined) return undefined;
    return createPayWebhookHandler({
      secrets: secret, updates: this.#updates, clock: this.#clock,
      onEvent: (event) => { if (this.#channel) void this.#relay({ i: this.#instance, k: 's', s: event.data }); },
    });
  }

  /** Stops driving payments (their rows stay, for the next start), closes the channel (releasing its locks). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#adopter);
    await this.#adopting;
    await Promise.allSettled([...this.#loading.values()]);
    for (const payment of this.#driven.values()) payment.close();
    await Promise.allSettled([...this.#background, ...[...this.#driven.values()].map((p) => p.idle())]);
    this.#driven.clear();
    await this.#channel?.close();
  }

  // ---- internals -------------------------------------------------------

  #open(): void {
    if (this.#closed) throw new PaymentsError('PAYMENTS_CLOSED', 'the server is stopping: retry on another instance or later');
  }

  async #intent(tillId: string, paymentId: string, op: (payment: TillPayment) => Promise<unknown>): Promise<PaymentView> {
    for (;;) {
      const payment = await this.#drive(tillId, paymentId);
      // Evicted while this intent waited its turn: the row is the payment now.
      if (!payment.closed) return payment.run(() => op(payment));
    }
  }

  /**
   * Forgets a payment that ended once it is at rest (no intent, no write, no
   * rescan awaited, no transaction watched for a late result): a long-running
   * server keeps only live payments. Its row stays: `pay.get` reads it, and an
   * intent (a refund after the receipt) drives it again from there.
   */
  #settled(payment: TillPayment): void {
    const k = key(payment.tillId, payment.paymentId);
    if (this.#closed || payment.closed || this.#driven.get(k) !== payment) return;
    if (payment.busy || payment.session.watching || isOpen({ receiptSent: payment.receiptSent, view: { phase: payment.session.phase } })) return;
    this.#driven.delete(k);
    payment.close();
    if (this.#channel) this.#channel.unlock(k).catch((error: unknown) => this.#error(error, 'payment unlock failed'));
  }

  async #known(tillId: string, paymentId: string): Promise<PaymentView | undefined> {
    this.#open();
    const driven = this.#driven.get(key(tillId, paymentId));
    if (driven !== undefined) return driven.view();
    return (await this.#store.find(tillId, paymentId))?.view;
  }

  /** The payment driven here, restored from its row (and locked) when it is not yet. */
  #drive(tillId: string, paymentId: string): Promise<TillPayment> {
    this.#open();
    const k = key(tillId, paymentId);
    const driven = this.#driven.get(k);
    if (driven !== undefined) return Promise.resolve(driven);
    let loading = this.#loading.get(k);
    if (loading === undefined) {
      loading = (async () => {
        const record = await this.#store.find(tillId, paymentId);
        if (record === undefined) throw notFound(paymentId);
        if (!(await this.#lock(tillId, paymentId))) throw this.#elsewhere(paymentId);
        // Read again under the lock: the instance that held it may have written since.
        const payment = this.#restore((await this.#store.find(tillId, paymentId)) ?? record);
        this.#driven.set(k, payment);
        return payment;
      })().finally(() => this.#loading.delete(k));
      this.#loading.set(k, loading);
    }
    return loading;
  }

  #restore(record: PaymentRecord): TillPayment {
    return this.#payment({
      tillId: record.tillId, paymentId: record.paymentId, ...(record.cardNumber === undefined ? {} : { cardNumber: record.cardNumber }),
      receiptSent: record.receiptSent, createdAt: record.createdAt, cardSession: record.snapshot.cardSession,
      basket: record.snapshot.basket, restore: record.snapshot,
    });
  }

  #payment(init: ConstructorParameters<typeof TillPayment>[1]): TillPayment {
    return new TillPayment({
      client: this.#o.client, updates: this.#updates, pollIntervalMs: this.#o.pollIntervalMs, clock: this.#clock,
      newId: this.#o.newId, sleep: this.#o.sleep, writeBehind: this.#o.writeBehind === true,
      save: (record) => this.#store.save(record),
      publish: (tillId, update) => this.#publish(tillId, update),
      settled: (payment) => this.#settled(payment),
      onError: (error, what) => this.#error(error, what),
    }, init);
  }

  /** Verifies a scan: a card session must come with it, of the payment's card when it has one. */
  async #scan(fullBarcode: string, cardNumber: string | undefined): Promise<{ cardSession: string; cardNumber: string | undefined }> {
    const result = await this.#o.verify(fullBarcode);
    if (result.resultCode !== 'CARDSESSION_AVAILABLE' || result.cardSession === null) {
      throw new PaymentsError('BARCODE_REFUSED', `the barcode allows no wallet payment: ${result.resultCode} (${result.reason})`,
        [`fullBarcode: ${result.resultCode} (${result.reason})`]);
    }
    if (cardNumber !== undefined && result.cardNumber !== cardNumber) {
      throw new PaymentsError('BARCODE_REFUSED', "the barcode is another card's", ["fullBarcode: must be the payment's card"]);
    }
    return { cardSession: result.cardSession, cardNumber: result.cardNumber ?? undefined };
  }

  #publish(tillId: string, update: SessionUpdate): void {
    this.#feed.deliver(tillId, update);
    if (this.#channel) void this.#relay({ i: this.#instance, k: 'u', t: tillId, u: update });
  }

  async #relay(message: Relay): Promise<void> {
    try {
      await this.#channel?.notify(JSON.stringify(message));
    } catch (error) {
      this.#error(error, 'payment relay failed');
    }
  }

  #relayed(payload: string): void {
    let message: Relay;
    try {
      message = JSON.parse(payload) as Relay;
    } catch {
      return;
    }
    if (message.i === this.#instance) return;
    if (message.k === 'u') this.#feed.deliver(message.t, message.u);
    else if (message.k === 's') this.#updates.publish(message.s);
  }

  async #lock(tillId: string, paymentId: string): Promise<boolean> {
    return this.#channel === undefined ? true : this.#channel.tryLock(key(tillId, paymentId));
  }

  #elsewhere(paymentId: string): PaymentsError {
    return new PaymentsError('PAYMENT_ELSEWHERE', `payment ${paymentId} is driven by another server instance; its updates still come here`);
  }

  /** Carries on every open payment this instance can lock and does not drive yet. */
  #adoptAll(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#adopting ??= (async () => {
      for (const { tillId, paymentId } of await this.#store.allOpen()) {
        if (this.#closed) return;
        const k = key(tillId, paymentId);
        if (this.#driven.has(k) || this.#loading.has(k)) continue;
        try {
          this.#resume(await this.#drive(tillId, paymentId));
        } catch (error) {
          if (!(error instanceof PaymentsError)) this.#error(error, 'payment adoption failed');
        }
      }
    })().catch((error: unknown) => this.#error(error, 'payment adoption failed')).finally(() => { this.#adopting = undefined; });
    return this.#adopting;
  }

  /** Carries on where a restored payment stands: the provider list again, the same /checkout, or /status now. */
  #resume(payment: TillPayment): void {
    const { session } = payment;
    const work = session.phase === 'new' ? payment.run(() => session.start())
      : session.phase === 'unknown' ? payment.run(() => session.recover())
        : session.phase === 'pending' ? session.refresh()
          : undefined;
    if (work === undefined) return;
    const tracked = work.catch(() => {}).finally(() => this.#background.delete(tracked));
    this.#background.add(tracked);
  }

  #error(error: unknown, what: string): void {
    this.#o.onError?.(error, what);
  }
}

function notFound(paymentId: string): PaymentsError {
  return new PaymentsError('PAYMENT_NOT_FOUND', `this till has no payment ${paymentId}`, ['paymentId: no such payment for this till']);
}

