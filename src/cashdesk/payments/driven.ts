import type { TransactionUpdates } from '../../pay/updates.js';
import { notFound, PaymentsError } from './errors.js';
import type { HintBody } from './hints.js';
import type { Leases } from './leases.js';
import type { OwnershipEvent } from './ownership.js';
import { ReleaseWaits } from './release-waits.js';
import { keyFields, keyOf, type PaymentKey, type StoredPayment } from './rows.js';
import type { PaymentStore } from './store.js';
import type { TillPayment } from './till-payment.js';

/** What {@link DrivenPayments} needs of the payments service. */
export interface DrivenDeps {
  store: PaymentStore;
  leases: Leases;
  updates: TransactionUpdates;
  /** A payment object for a row this instance just claimed. */
  restore(stored: StoredPayment): TillPayment;
  /** Sends a hint to the other instances (none when alone). */
  hint(hint: HintBody): void;
  /** How long an intent waits for another instance to hand its payment over, in ms. */
  handoffTimeoutMs: number;
  /**
   * Alone on the database (no other instance can want a payment): an open payment at rest stays in memory
   * under its lease until it ends, and a lease needs no check before use. Shared: it is given up at rest.
   */
  alone: boolean;
  onError(error: unknown, what: string): void;
  /** Each change of a payment's lease here (for the log). */
  owned?(event: OwnershipEvent): void;
}

/** Payments claimed per adoption statement: an instance that finds many orphans takes them a batch at a time. */
export const ADOPT_BATCH = 50;

/**
 * The payments this instance drives, each under its lease: claimed on a
 * till's intent (or handed over by the instance that held it), adopted once
 * their lease expired, renewed together, given up when at rest or wanted
 * elsewhere, and dropped the moment a write finds the lease gone.
 */
export class DrivenPayments {
  readonly #deps: DrivenDeps;
  readonly #driven = new Map<string, TillPayment>();
  readonly #loading = new Map<string, Promise<TillPayment>>();
  readonly #releasing = new Map<string, Promise<void>>();
  readonly #wanted = new Set<string>();
  readonly #released = new ReleaseWaits();
  /** When (performance.now()) each payment driven here was claimed: a renewal begun earlier cannot judge it. */
  readonly #claimedAt = new Map<string, number>();
  #strays = new Set<string>();
  /** Until when (performance.now()) the last renewal keeps every lease of this instance. */
  #freshUntil = 0;
  #closed = false;

  constructor(deps: DrivenDeps) {
    this.#deps = deps;
  }

  /** How many payments this instance drives. */
  get size(): number {
    return this.#driven.size;
  }

  /** Every payment driven here. */
  all(): TillPayment[] {
    return [...this.#driven.values()];
  }

  /** Settles when the writes of every payment of `tillId` (of every till without one) driven here are done. */
  async writesDone(tillId?: string): Promise<void> {
    await Promise.all(
      this.all()
        .filter((p) => tillId === undefined || p.tillId === tillId)
        .map((p) => p.writesDone()),
    );
  }

  /** The payment driven here, if it is. */
  get(key: PaymentKey): TillPayment | undefined {
    return this.#driven.get(keyOf(key));
  }

  /** Whether a payment is driven or being claimed here. */
  has(key: PaymentKey): boolean {
    return this.#driven.has(keyOf(key)) || this.#loading.has(keyOf(key));
  }

  /** A new payment, inserted under this instance's lease. */
  add(payment: TillPayment): void {
    this.#hold(payment);
  }

  /**
   * The payment, driven here: as it is, its lease extended first when the last
   * renewal is getting old; or claimed from its row (free, expired, or handed
   * over by the instance that holds it, which is asked to).
   */
  async drive(key: PaymentKey): Promise<TillPayment> {
    const k = keyOf(key);
    const driven = this.#driven.get(k);
    if (driven !== undefined) return this.#fresh(driven);
    let loading = this.#loading.get(k);
    if (loading === undefined) {
      loading = this.#claim(key).finally(() => this.#loading.delete(k));
      this.#loading.set(k, loading);
    }
    return loading;
  }

  /** Claims expired leases' payments a batch at a time, each to `carryOn` once taken: a failed batch strands none. */
  async adopt(carryOn: (payment: TillPayment) => void): Promise<void> {
    for (const key of await this.#deps.leases.endExpired()) this.#deps.owned?.({ ...key, change: 'swept' });
    for (;;) {
      if (this.#closed) return;
      const rows = await this.#deps.leases.claimExpired(ADOPT_BATCH);
      // Claimed here already under an older epoch (a renewal that failed): #take closes the older object.
      for (const row of rows) carryOn(await this.#take(row, 'adopted'));
      if (rows.length < ADOPT_BATCH) return;
    }
  }

  /**
   * Extends every lease held; drops the payments whose lease went elsewhere; hands over the wanted ones, and gives
   * up those at rest.
   */
  async renew(): Promise<void> {
    const started = performance.now();
    const held = await this.#deps.leases.renew();
    this.#freshUntil = started + this.#deps.leases.ttlMs * 0.8;
    const epochs = new Map(held.map((h) => [keyOf(h), h]));
    // Held in the row but driven by nothing here at two renewals in a row (its object was dropped; one renewal
    // alone may race a claim that has not reached the map yet): let another instance adopt it.
    const strays = new Set<string>();
    for (const [k, lease] of epochs) {
      if (this.#driven.has(k) || this.#loading.has(k) || this.#releasing.has(k)) continue;
      if (!this.#strays.has(k)) {
        strays.add(k);
        continue;
      }
      this.#deps.owned?.({ ...lease, change: 'stray' });
      this.#deps.leases
        .release(lease, lease.epoch)
        .catch((error: unknown) => this.#deps.onError(error, 'payment lease release failed'));
    }
    this.#strays = strays;
    for (const [k, payment] of this.#driven) {
      if ((this.#claimedAt.get(k) ?? 0) >= started) continue; // claimed while the renewal ran: not in its answer
      const lease = epochs.get(k);
      if (lease === undefined || lease.epoch !== payment.epoch) {
        this.lost(payment);
      } else if (lease.wanted) {
        this.wanted(payment);
      } else {
        // Each trigger (an intent's end, a write, a result) offers it once: one missed, it is still given up here.
        this.settled(payment);
      }
    }
  }

  /** Another instance wants the payment: handed over now if at rest, else once it is. */
  wanted(key: PaymentKey): void {
    const payment = this.#driven.get(keyOf(key));
    if (payment === undefined) return;
    this.#wanted.add(keyOf(key));
    this.settled(payment);
  }

  /** The owner released a payment this instance may be waiting for. */
  released(key: PaymentKey): void {
    this.#released.released(key);
  }

  /** A write found the lease gone: the payment is no longer driven here. */
  lost(payment: TillPayment): void {
    const k = keyOf(payment);
    payment.close();
    this.#wanted.delete(k);
    if (this.#driven.get(k) !== payment) return;
    this.#forget(k);
    this.#deps.owned?.({ ...keyFields(payment), epoch: payment.epoch, change: 'lost' });
  }

  /** The payment may be at rest: given up (at rest, or wanted elsewhere) once nothing runs and all is written. */
  settled(payment: TillPayment): void {
    const k = keyOf(payment);
    if (this.#closed || payment.closed || this.#driven.get(k) !== payment || payment.busy) return;
    const wanted = this.#wanted.has(k);
    if (!wanted && (payment.needsDriver || (this.#deps.alone && payment.open))) return;
    // Read before close(): closing stops the session's watching.
    const active = payment.needsDriver;
    this.#forget(k);
    this.#wanted.delete(k);
    payment.close();
    const releasing = this.#deps.leases
      .release(payment, payment.epoch, active)
      .then(
        (released) => {
          if (!released) return;
          const change = wanted ? 'handedOver' : active ? 'released' : 'ended';
          this.#deps.owned?.({ ...keyFields(payment), epoch: payment.epoch, change });
          if (wanted) this.#deps.hint({ kind: 'released', tillId: payment.tillId, paymentId: payment.paymentId });
        },
        (error: unknown) => this.#deps.onError(error, 'payment lease release failed'),
      )
      .finally(() => this.#releasing.delete(k));
    this.#releasing.set(k, releasing);
  }

  /** Stops: every payment closed, its writes done, every lease given up so another instance takes them at once. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.allSettled([...this.#loading.values()]);
    const payments = [...this.#driven.values()];
    for (const payment of payments) payment.close();
    await Promise.allSettled([...payments.map((p) => p.idle()), ...this.#releasing.values()]);
    this.#driven.clear();
    this.#claimedAt.clear();
    await this.#deps.leases
      .releaseAll()
      .catch((error: unknown) => this.#deps.onError(error, 'payment leases release failed'));
  }

  #hold(payment: TillPayment): void {
    // An older object of the same payment (its lease taken anew here) must call nothing more.
    const before = this.#driven.get(keyOf(payment));
    if (before !== undefined && before !== payment) before.close();
    this.#driven.set(keyOf(payment), payment);
    this.#claimedAt.set(keyOf(payment), performance.now());
  }

  #forget(k: string): void {
    this.#driven.delete(k);
    this.#claimedAt.delete(k);
  }

  async #fresh(payment: TillPayment): Promise<TillPayment> {
    if (this.#deps.alone || performance.now() < this.#freshUntil) return payment;
    const row = await this.#deps.leases.claim(payment, payment.epoch);
    if (row !== undefined && row.epoch === payment.epoch) return payment;
    this.lost(payment);
    return this.drive(payment);
  }

  async #claim(key: PaymentKey): Promise<TillPayment> {
    if (this.#closed)
      throw new PaymentsError('PAYMENTS_CLOSED', 'the server is stopping: retry on another instance or later');
    await this.#releasing.get(keyOf(key));
    const claimed = await this.#deps.leases.claim(key);
    if (claimed !== undefined) return this.#take(claimed, 'claimed');
    const adopted = this.#driven.get(keyOf(key)); // adopted here meanwhile
    if (adopted !== undefined) return adopted;
    if ((await this.#deps.store.find(key)) === undefined) throw notFound(key.paymentId);
    return this.#take(await this.#handedOver(key), 'claimed');
  }

  /** Asks the owner to hand the payment over and claims it once released (or expired). */
  async #handedOver(key: PaymentKey): Promise<StoredPayment> {
    const deadline = performance.now() + this.#deps.handoffTimeoutMs;
    await this.#deps.leases.want(key);
    this.#deps.hint({ kind: 'wanted', ...key });
    // Without the hint (channel down) the owner reads `wanted` at its next renewal: poll at that pace.
    const pollMs = Math.max(50, Math.floor(this.#deps.leases.ttlMs / 6));
    for (;;) {
      const left = deadline - performance.now();
      if (left <= 0 || this.#closed) {
        throw new PaymentsError('PAYMENT_BUSY', `payment ${key.paymentId} is busy on another server instance: retry`);
      }
      await this.#released.releasedOrAfter(key, Math.min(left, pollMs));
      const claimed = await this.#deps.leases.claim(key);
      if (claimed !== undefined) return claimed;
    }
  }

  /** Makes the payment object of a claimed row and hands it the webhook states kept for its transactions. */
  async #take(stored: StoredPayment, change: 'claimed' | 'adopted'): Promise<TillPayment> {
    const payment = this.#deps.restore(stored);
    this.#hold(payment);
    this.#deps.owned?.({ ...keyFields(payment), epoch: stored.epoch, change });
    const snapshot = stored.record.snapshot;
    const ids = [
      ...(snapshot.transaction ? [String(snapshot.transaction.transactionId)] : []),
      ...snapshot.left.map(String),
    ];
    try {
      for (const state of await this.#deps.store.statesOf(ids)) this.#deps.updates.publish(state);
    } catch (error) {
      this.#deps.onError(error, 'payment webhook states not read: polling carries on');
    }
    return payment;
  }
}
