import type { SharedChannel } from '../../db/index.js';
import type { TransactionUpdates } from '../../pay/updates.js';
import type { DrivenPayments } from './driven.js';
import { parseHint, type HintBody } from './hints.js';
import type { PaymentStore } from './store.js';
import type { TillFeedRelay } from './till-relay.js';
import type { TillPayment } from './till-payment.js';

/** Hints kept to send again while the database is away (the oldest dropped past it: resync covers those). */
const UNSENT_KEPT = 10_000;

/** Hints that replace each other: a payment's newer events hint covers its older one. */
function hintKey(hint: HintBody): string {
  switch (hint.kind) {
    case 'state':
      return `state/${hint.transactionId}`;
    default:
      return `${hint.kind}/${hint.tillId}/${hint.paymentId}`;
  }
}

/** What the payments listen to on the shared channel. */
export interface ChannelListeners {
  /** A hint from another instance. */
  onMessage(payload: string): void;
  /** The LISTEN connection went down: hints are lost until it is back. */
  onDown(): void;
  /** It is back: the rows hinted at meanwhile are read. */
  onReconnect(): void;
}

/** What {@link Coordination} works with. */
export interface CoordinationDeps {
  /** This instance's id (the `from` of its hints, the `owner` of its leases). */
  instance: string;
  store: PaymentStore;
  driven: DrivenPayments;
  tills: TillFeedRelay;
  updates: TransactionUpdates;
  /** Opens the shared channel; undefined when the instance is alone on its database. */
  openChannel: ((listeners: ChannelListeners) => Promise<SharedChannel>) | undefined;
  adoptIntervalMs: number;
  renewIntervalMs: number;
  onError(error: unknown, what: string): void;
}

/**
 * How this instance works beside the others on one database: the hints it
 * sends and reads over the shared channel, what it reads again when the
 * channel comes back, and the two timers (adoption of expired leases, renewal
 * of its own). Idle, it sends one renewal and one adoption statement per
 * interval and does no per-row work.
 */
export class Coordination {
  readonly #deps: CoordinationDeps;
  readonly #timers: NodeJS.Timeout[] = [];
  readonly #background = new Set<Promise<unknown>>();
  readonly #unsent = new Map<string, HintBody>();
  /** Payments whose resumption runs: the next sweep leaves them alone. */
  readonly #resuming = new WeakSet<TillPayment>();
  /** Payments found stalled at the last sweep. */
  #stalled = new Set<TillPayment>();
  #channel: SharedChannel | undefined;
  #adopting: Promise<void> | undefined;
  #renewing: Promise<void> | undefined;
  #closed = false;

  constructor(deps: CoordinationDeps) {
    this.#deps = deps;
  }

  /** Opens the channel, starts the timers, adopts what has no driver now, and renews once. */
  async start(): Promise<void> {
    const { openChannel, tills } = this.#deps;
    if (openChannel !== undefined) {
      this.#channel = await openChannel({
        onMessage: (payload) => this.#hinted(payload),
        onDown: () => tills.down(),
        onReconnect: () => this.#resync(),
      });
    }
    this.#every(this.#deps.adoptIntervalMs, () => {
      void this.adopt();
      this.#resumeStalled();
      // Alone on its database, every event is told from here: only beside others can a hint be missed for good.
      if (this.#channel !== undefined) tills.sweep();
    });
    this.#every(this.#deps.renewIntervalMs, () => {
      this.#renew();
      this.#resend();
      tills.retry();
    });
    await this.adopt();
    this.#renew();
  }

  /**
   * Tells the other instances (nothing when alone). A hint that could not be sent (the database is away) is
   * sent again once it can be, the newest per payment: the rows it points at were written, so they must be read.
   */
  hint(hint: HintBody): void {
    // Sent while stopping too: the last writes of the payments being let go must reach the tills elsewhere.
    if (this.#channel === undefined) return;
    this.#channel.notify(JSON.stringify({ ...hint, from: this.#deps.instance })).catch((error: unknown) => {
      this.#deps.onError(error, 'payment hint not sent: sent again once the database answers');
      this.#unsent.set(hintKey(hint), hint);
      if (this.#unsent.size > UNSENT_KEPT) this.#unsent.delete(this.#unsent.keys().next().value!);
    });
  }

  /** Adopts the payments whose lease expired, and carries each on where it stands. */
  adopt(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#adopting ??= this.#deps.driven
      .adopt((payment) => this.#resume(payment))
      .catch((error: unknown) => this.#deps.onError(error, 'payment adoption failed'))
      .finally(() => {
        this.#adopting = undefined;
      });
    return this.#adopting;
  }

  /** Stops the timers and waits for the work they started; `closeChannel` afterwards. */
  async stop(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#timers) clearInterval(timer);
    await Promise.allSettled([this.#adopting, this.#renewing, ...this.#background]);
  }

  /** Closes the shared channel (after the last hint). */
  async closeChannel(): Promise<void> {
    const channel = this.#channel;
    this.#channel = undefined;
    await channel?.close();
  }

  #every(ms: number, run: () => void): void {
    const timer = setInterval(run, ms);
    timer.unref();
    this.#timers.push(timer);
  }

  /** Sends again the hints that could not be sent. */
  #resend(): void {
    const unsent = [...this.#unsent.values()];
    this.#unsent.clear();
    for (const hint of unsent) this.hint(hint);
  }

  #renew(): void {
    if (this.#closed || this.#renewing !== undefined) return;
    this.#renewing = this.#deps.driven
      .renew()
      .catch((error: unknown) => this.#deps.onError(error, 'payment lease renewal failed'))
      .finally(() => {
        this.#renewing = undefined;
      });
  }

  #hinted(payload: string): void {
    const hint = parseHint(payload);
    if (hint === undefined || hint.from === this.#deps.instance || this.#closed) return;
    switch (hint.kind) {
      case 'events':
        this.#deps.tills.hinted(hint, hint.seq);
        return;
      case 'state':
        void this.#readStates([hint.transactionId]);
        return;
      case 'wanted':
        this.#deps.driven.wanted(hint);
        return;
      case 'released':
        this.#deps.driven.released(hint);
        return;
    }
  }

  /** The channel is back: hints sent meanwhile were lost, so the rows they pointed at are read now. */
  #resync(): void {
    this.#deps.tills.resync();
    const ids = this.#deps.driven
      .all()
      .flatMap((p) => (p.session.transactionId === undefined ? [] : [String(p.session.transactionId)]));
    void this.#readStates(ids);
  }

  async #readStates(transactionIds: string[]): Promise<void> {
    try {
      for (const state of await this.#deps.store.statesOf(transactionIds)) this.#deps.updates.publish(state);
    } catch (error) {
      this.#deps.onError(error, 'payment webhook states not read: polling carries on');
    }
  }

  /**
   * Drives again the payments held here that wait for nothing but a call of their own: a lost answer to the
   * provider list (`new`) or to /checkout (`unknown`, no invoice known), whether a till's intent, an adoption or a
   * hand-over left them there. Each is resumed as an adopted one is (a new requestId for the provider list, the
   * same requestId for /checkout), at most once at a time.
   */
  #resumeStalled(): void {
    if (this.#closed) return;
    const seen = new Set<TillPayment>();
    for (const payment of this.#deps.driven.all()) {
      if (payment.busy || payment.closed || this.#resuming.has(payment) || !stalled(payment)) continue;
      // Stalled at two sweeps in a row: a till following its failed intent up at once is not raced.
      if (this.#stalled.has(payment)) this.#resume(payment);
      else seen.add(payment);
    }
    this.#stalled = seen;
  }

  /** Carries on where an adopted payment stands: the provider list again, the same /checkout, or /status now. */
  #resume(payment: TillPayment): void {
    const { session } = payment;
    const work =
      session.phase === 'new'
        ? payment.run(() => session.start())
        : session.phase === 'unknown'
          ? payment.run(() => session.recover())
          : session.phase === 'pending'
            ? session.refresh()
            : undefined;
    if (work === undefined) {
      this.#deps.driven.settled(payment);
      return;
    }
    this.#resuming.add(payment);
    const tracked = work
      .catch(() => {})
      .finally(() => {
        this.#background.delete(tracked);
        this.#resuming.delete(payment);
        this.#deps.driven.settled(payment);
      });
    this.#background.add(tracked);
  }
}

/**
 * Whether a payment waits only for its own call to be made again: no provider list yet (`new`), or no answer to
 * its /checkout (`unknown` without an invoice; one whose status words are not understood is polled instead).
 */
function stalled(payment: TillPayment): boolean {
  const { session } = payment;
  return session.phase === 'new' || (session.phase === 'unknown' && session.unknownReason !== 'UNRECOGNIZED_STATUS');
}
