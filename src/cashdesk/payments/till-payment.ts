import type { PaymentView } from '../../contracts/cashdesk-payments.js';
import { PaymentSessionError } from '../../pay/errors.js';
import { createPaymentSession, type PaymentSession } from '../../pay/session.js';
import type { PaymentSessionEvent } from '../../pay/session-types.js';
import { PaymentsError } from './errors.js';
import { refundOf, told, updateFor } from './payment-updates.js';
import { isOpen, type PaymentRecord } from './record.js';
import { LeaseLostError, RecordWrites } from './record-writes.js';
import { RescanWait } from './rescan-wait.js';
import type { AuditRecord } from '../back-office/audit-log.js';
import type { ReceiptMark } from './receipt-mark.js';
import type { PaymentWrite } from './store.js';
import type { TillPaymentDeps, TillPaymentInit } from './till-payment-deps.js';

/**
 * Phases in which a call or a result may still come: the payment needs a driver, and is adopted if its instance dies.
 */
const DRIVEN: ReadonlySet<string> = new Set(['new', 'checking', 'checkout', 'rescanning', 'pending', 'unknown']);

/**
 * One till payment run by the server: its payment session (src/pay), the
 * till's pending rescan, and the writes of its record. Every phase change and
 * session event is written, then told to the till; each /checkout and /refund
 * waits for its write first (the session's checkpoint), so a restart carries
 * on with the same requestId and refundId.
 */
export class TillPayment {
  readonly tillId: string;
  readonly paymentId: string;
  readonly cardNumber: string | undefined;
  readonly session: PaymentSession;
  receiptSent: boolean;
  /** The last receipt's id and where it stands (see sendReceiptOnce). */
  receipt: ReceiptMark;
  /** Whether this object's receipt call runs: a second `pay.receipt` meanwhile waits for nothing, it is refused. */
  receiptSending = false;
  /** The lease's epoch: every write names it, and is refused once another instance claimed the payment. */
  epoch: number;
  readonly #deps: TillPaymentDeps<TillPayment>;
  readonly #writes: RecordWrites;
  #seq: number;
  // Events the session raised while it was being made (a state already known, replayed on restore): handled after.
  #early: PaymentSessionEvent[] | undefined = [];
  readonly #createdAt: Date;
  #updatedAt: number;
  readonly #rescan = new RescanWait();
  #op: Promise<unknown> | undefined;
  #running = 0;
  /** Audited intents under way: their events wait for the write that carries their audit record (checkpoints aside). */
  #holding = 0;
  #closed = false;

  constructor(deps: TillPaymentDeps<TillPayment>, init: TillPaymentInit) {
    this.#deps = deps;
    this.tillId = init.tillId;
    this.paymentId = init.paymentId;
    this.cardNumber = init.cardNumber;
    this.receiptSent = init.receiptSent;
    this.receipt = init.receipt ?? {};
    this.#createdAt = init.createdAt;
    this.#updatedAt = deps.clock();
    this.epoch = init.epoch;
    this.#seq = init.seq;
    this.#writes = new RecordWrites({
      paymentId: init.paymentId,
      save: (write) => deps.save(write),
      onError: deps.onError,
      current: () => ({ record: this.record(), epoch: this.epoch, active: this.needsDriver }),
      written: () => deps.settled(this),
      // Each event is published once its write stored it, a retried write's too (the hint was not sent before).
      stored: (events) => {
        for (const { update } of events) deps.publish(this.tillId, update);
      },
      lost: () => {
        this.close();
        deps.lost(this);
      },
    });
    this.session = createPaymentSession({
      client: deps.client,
      cardSession: init.cardSession,
      basket: init.basket,
      updates: deps.updates,
      ...(deps.pollIntervalMs === undefined ? {} : { pollIntervalMs: deps.pollIntervalMs }),
      ...(deps.unknownStatusTimeoutMs === undefined ? {} : { unknownStatusTimeoutMs: deps.unknownStatusTimeoutMs }),
      clock: deps.clock,
      ...(deps.newId === undefined ? {} : { newId: deps.newId }),
      ...(deps.sleep === undefined ? {} : { sleep: deps.sleep }),
      ...(init.restore === undefined ? {} : { restore: init.restore }),
      rescan: () => this.#rescan.ask(),
      checkpoint: () => (deps.writeBehind === true ? this.#flushBehind() : this.flush()),
      onEvent: (event) => (this.#early === undefined ? this.#onEvent(event) : this.#early.push(event)),
    });
    const early = this.#early ?? [];
    this.#early = undefined;
    for (const event of early) this.#onEvent(event);
  }

  /** The payment as the till sees it. */
  view(): PaymentView {
    const s = this.session;
    const t = s.snapshot().transaction;
    const state = s.transaction;
    // The status as the service wrote it; its class from the dialect (none for a word it does not know).
    const cls = t ? s.dialect.classOf(t.status) : undefined;
    const reason =
      state?.reason ??
      (s.phase === 'unknown' && s.unknownReason === 'UNRECOGNIZED_STATUS' ? s.unknownReason : undefined);
    return {
      paymentId: this.paymentId,
      phase: s.phase,
      walletPayIsDefault: s.walletPayIsDefault,
      providers: [...s.providers],
      ...(t ? { transactionId: t.transactionId, status: t.status, ...(cls ? { statusClass: cls } : {}) } : {}),
      ...(reason ? { reason } : {}),
      totalAmount: s.totalAmount,
      ...(state ? { refundedAmount: state.refundedAmount } : {}),
      transactions: s.transactions.map((x) => ({ ...x, transactionId: String(x.transactionId) })),
      refunds: s.refunds.map(refundOf),
      receiptSent: this.receiptSent,
      ...this.receipt,
      updatedAt: new Date(this.#updatedAt).toISOString(),
    };
  }

  /** The record to store. */
  record(): PaymentRecord {
    return {
      tillId: this.tillId,
      paymentId: this.paymentId,
      ...(this.cardNumber === undefined ? {} : { cardNumber: this.cardNumber }),
      receiptSent: this.receiptSent,
      snapshot: this.session.snapshot(),
      view: this.view(),
      createdAt: this.#createdAt,
    };
  }

  /** The first write of a new payment (its insert): under epoch 1, no events yet. */
  insertion(): PaymentWrite {
    return { record: this.record(), epoch: this.epoch, active: this.needsDriver, events: [] };
  }

  /** Whether a call or a result may still come (a phase under way, or a transaction still watched). */
  get needsDriver(): boolean {
    return this.#running > 0 || this.#rescan.waiting || this.session.watching || DRIVEN.has(this.session.phase);
  }

  /** Whether the payment still concerns its till (not ended, not a paid sale whose receipt went out). */
  get open(): boolean {
    const { phase, transactions } = this.view();
    return isOpen({ receiptSent: this.receiptSent, view: { phase, transactions } });
  }

  /** The sequence number of the payment's last event. */
  get seq(): number {
    return this.#seq;
  }

  /** Whether an intent runs, a write is under way or the till's rescan is awaited: the payment is not at rest. */
  get busy(): boolean {
    return this.#running > 0 || this.#writes.pending > 0 || this.#writes.unwritten || this.#rescan.waiting;
  }

  /** Whether {@link close} was called: the payment is no longer driven by this object. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Whether the payment waits for the till's rescan. */
  get awaitingRescan(): boolean {
    return this.#rescan.waiting;
  }

  /**
   * Runs a till's intent: resolves with the payment's view once the intent is
   * done, or as soon as the session waits for the till's rescan (the till then
   * sends `pay.rescan`; the intent carries on and its outcome comes as updates).
   * Its state is written before the answer. With `audit`, the intent's events
   * (but those its checkpoints write) wait for the write after it, which holds
   * the record `audit` makes of its answer: the effect and its record are one
   * statement (tried again together when it fails). A refusal gets no record here.
   */
  async run(op: () => Promise<unknown>, audit?: (view: PaymentView) => AuditRecord): Promise<PaymentView> {
    const rescan = this.#rescan.asked();
    this.#running++;
    if (audit !== undefined) this.#holding++;
    let answered = false;
    try {
      const done = op();
      this.#op = done;
      const first = await Promise.race([done.then(() => 'done' as const), rescan.promise]);
      // Carried on after the answer: its refusals reach the till as phases (RESCAN_FAILED: back where it was).
      if (first === 'rescan') done.catch((error: unknown) => this.#background(error));
      answered = true;
    } finally {
      rescan.stop();
      if (audit !== undefined) this.#release(answered ? audit(this.view()) : undefined);
      // A refusal too is answered only once what it changed is written.
      if (this.#deps.writeBehind !== true) await this.#writes.done();
      this.#running--;
      // A refused intent too: its writes were done while it ran, so nothing else would offer the payment again.
      this.#deps.settled(this);
    }
    return this.view();
  }

  /** The till scanned again: the session carries on with the new card session, as the intent that asked for it. */
  rescanned(cardSession: string): Promise<unknown> {
    if (!this.#rescan.give(cardSession)) {
      throw new PaymentsError(
        'NO_RESCAN_PENDING',
        `payment ${this.paymentId} is not waiting for a rescan (phase ${this.session.phase})`,
      );
    }
    return this.#op ?? Promise.resolve();
  }

  /** The till gives up the rescan (it abandons the payment): the waiting intent ends with RESCAN_FAILED. */
  async dropRescan(): Promise<void> {
    if (!this.#rescan.drop(new PaymentsError('NO_RESCAN_PENDING', 'the till abandoned the payment'))) return;
    await this.#op?.catch(() => {});
  }

  /** The record's first write (its insert), under way: every later write goes after it. */
  writeFirst(insert: Promise<unknown>): void {
    this.#writes.first(insert);
  }

  /**
   * Writes the current record and the events not yet written, after the writes queued before it; rejects
   * when the write fails (it is tried again with backoff) or the lease was lost ({@link LeaseLostError}).
   */
  flush(): Promise<void> {
    return this.#writes.flush();
  }

  /** Whether the lease was lost: this object drives nothing any more. */
  get lost(): boolean {
    return this.#writes.lost;
  }

  /** Settles once the writes queued so far are done (a failed one too: it was reported). */
  writesDone(): Promise<void> {
    return this.#writes.done();
  }

  /** Waits for the intent under way and the writes queued. */
  async idle(): Promise<void> {
    await this.#op?.catch(() => {});
    await this.#writes.done();
  }

  /** Stops the session's waiting and polling. */
  close(): void {
    this.#closed = true;
    this.#writes.close();
    this.session.close();
    this.#rescan.drop(new PaymentSessionError('SESSION_OVER', 'the server is stopping'));
  }

  /** An audited intent ended: what it held is written, with its record when it succeeded. */
  #release(record: AuditRecord | undefined): void {
    this.#holding--;
    if (record !== undefined) this.#writes.audit(record);
    if (this.#holding === 0 && this.#writes.unwritten) this.flush().catch(() => {});
  }

  #onEvent(event: PaymentSessionEvent): void {
    // A state that ends a watch is reported before the watch ends: look again once it has.
    if (event.type === 'transaction') queueMicrotask(() => this.#deps.settled(this));
    if (!told(event)) return;
    if (this.#closed) return; // a stopped or moved payment tells nothing: its next driver will
    this.#updatedAt = this.#deps.clock();
    const update = { ...updateFor(this.view(), event), seq: ++this.#seq };
    this.#writes.add(update.seq, update);
    if (this.#deps.writeBehind === true) {
      if (this.#holding === 0) void this.#flushBehind();
      this.#deps.publish(this.tillId, update);
      return;
    }
    if (this.#holding > 0) return; // written with the audited intent's record
    // Written first, then told: published when its write stores it (RecordWrites' `stored`), a write that
    // failed (tried again) included, so every event a till was told is in the rows, numbered as it was told.
    this.flush().catch(() => {});
  }

  /** Queues the write and goes on: its failure is reported by the write chain (onError), not to the caller. */
  #flushBehind(): Promise<void> {
    this.flush().catch(() => {});
    return Promise.resolve();
  }

  #background(error: unknown): void {
    if (error instanceof PaymentSessionError || error instanceof PaymentsError) return; // told as phases, or moved
    if ((error as { name?: string })?.name === 'PayError') return;
    this.#deps.onError(error, 'payment intent failed after its answer');
  }
}
