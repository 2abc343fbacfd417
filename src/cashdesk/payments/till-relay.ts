import type { SessionUpdate } from '../../contracts/cashdesk-payments.js';
import { TillFeed, updateOf, type UpdateListener } from './feed.js';
import { keyOf, type PaymentKey } from './rows.js';
import type { PaymentStore } from './store.js';

/** What {@link TillFeedRelay} needs. */
export interface TillFeedRelayDeps {
  store: PaymentStore;
  onError(error: unknown, what: string): void;
}

/** How far back a resynchronisation reads a till's events, beyond the time the channel was down. */
const RESYNC_MARGIN_MS = 5 * 60_000;

/**
 * Tells the tills connected here what happened to their payments, wherever
 * the payments are driven: from this instance at once, from the others by
 * reading the event rows a hint points at, and after a lost channel by
 * reading what was written meanwhile. Each listener gets each event once, in
 * the payment's order.
 */
export class TillFeedRelay {
  readonly #deps: TillFeedRelayDeps;
  readonly #feed = new TillFeed();
  readonly #reading = new Map<string, Promise<void>>();
  /** Hints whose read failed (the database stumbled), the highest seq per payment: read again by `retry`. */
  readonly #unread = new Map<string, { key: PaymentKey; seq: number }>();
  /** A resynchronisation whose read failed, from when: done again by `retry`. */
  #resyncFrom: Date | undefined;
  #downSince = Date.now();
  #sweeping = false;

  constructor(deps: TillFeedRelayDeps) {
    this.#deps = deps;
  }

  /** A till's listener: first the current state of its open payments, then every newer event. */
  async subscribe(tillId: string, listener: UpdateListener, closed: boolean): Promise<() => void> {
    const safe = (update: SessionUpdate) => {
      try {
        listener(update);
      } catch {
        // the connection's own trouble
      }
    };
    // Events that come while the stored state is read are held until it is told: the read may have begun before
    // their write committed (another pool connection, another instance), and a stale phase must never come last.
    let held: SessionUpdate[] | undefined = [];
    const subscription = this.#feed.subscribe(tillId, (update) =>
      held === undefined ? safe(update) : held.push(update),
    );
    const now: SessionUpdate[] = [];
    try {
      for (const stored of closed ? [] : await this.#deps.store.openOf(tillId))
        now.push(updateOf(stored.record.view, stored.seq));
    } catch (error) {
      subscription.unsubscribe(); // the caller gets no unsubscribe to call
      throw error;
    }
    const newer = held;
    held = undefined;
    const readSeq = new Map(now.map((u) => [u.paymentId, u.seq ?? 0]));
    for (const update of now) subscription.restate(update);
    // What came meanwhile and is newer than the state read (the feed's record of what was told holds these already).
    for (const update of newer)
      if (update.seq === undefined || update.seq > (readSeq.get(update.paymentId) ?? 0)) safe(update);
    return () => subscription.unsubscribe();
  }

  /**
   * A payment's events after `afterSeq` from its kept history; its current state restated when that history
   * does not reach back to `afterSeq` (or `afterSeq` is 0); undefined when there is no such payment.
   */
  async history(key: PaymentKey, afterSeq: number): Promise<SessionUpdate[] | undefined> {
    const stored = await this.#deps.store.find(key);
    if (stored === undefined) return undefined;
    const kept = afterSeq > 0 ? await this.#deps.store.eventsOf(key, afterSeq) : [];
    const reaches = afterSeq > 0 && (afterSeq >= stored.seq || kept[0]?.seq === afterSeq + 1);
    return reaches
      ? kept.map((event) => ({ ...event.update, seq: event.seq }))
      : [updateOf(stored.record.view, stored.seq)];
  }

  /** An event of a payment driven here: told at once. */
  deliver(tillId: string, update: SessionUpdate): void {
    this.#feed.deliver(tillId, update);
  }

  /** Another instance wrote a payment's events up to `seq`: read those not yet told here and tell them. */
  hinted(key: PaymentKey, seq: number): void {
    const told = this.#feed.toldOf(key.tillId, key.paymentId);
    if (told < 0 || told >= seq) return;
    const k = keyOf(key);
    // One read at a time per payment; a hint during a read is covered by reading again after it.
    const before = this.#reading.get(k) ?? Promise.resolve();
    const read = before
      .then(async () => {
        const after = this.#feed.toldOf(key.tillId, key.paymentId);
        if (after < 0 || after >= seq) return;
        for (const event of await this.#deps.store.eventsOf(key, after)) {
          this.#feed.deliver(key.tillId, { ...event.update, seq: event.seq });
        }
      })
      .catch((error: unknown) => {
        // Often the last hint of its payment (its result): nothing else would make this instance read it again.
        const unread = this.#unread.get(k);
        if (unread === undefined || unread.seq < seq) this.#unread.set(k, { key, seq });
        this.#deps.onError(error, 'payment events not read: read again shortly');
      })
      .finally(() => {
        if (this.#reading.get(k) === read) this.#reading.delete(k);
      });
    this.#reading.set(k, read);
  }

  /** The channel went down: a later resynchronisation reads from here on. */
  down(): void {
    this.#downSince = Date.now();
  }

  /** The channel is back: every connected till is told the events written since it went down. */
  resync(since = new Date(this.#downSince - RESYNC_MARGIN_MS)): void {
    for (const tillId of this.#feed.tills()) {
      this.#deps.store.eventsOfTill(tillId, since).then(
        (events) => {
          for (const event of events) this.#feed.deliver(tillId, { ...event.update, seq: event.seq });
        },
        (error: unknown) => {
          if (this.#resyncFrom === undefined || since < this.#resyncFrom) this.#resyncFrom = since;
          this.#deps.onError(error, 'payment events not read after the channel came back: read again shortly');
        },
      );
    }
  }

  /**
   * Reads how far each open payment of the tills connected here has gone and tells what they were not told: the
   * hints that never came (their writer died or lost its lease between its commit and its NOTIFY, or a write it
   * took for failed committed after all) are read here. One read of the payment rows per call, one at a time;
   * events only for payments behind. Called on a slow timer.
   */
  sweep(): void {
    const tills = this.#feed.tills();
    if (this.#sweeping || tills.length === 0) return;
    this.#sweeping = true;
    this.#deps.store
      .openSeqsOf(tills)
      .then(
        (open) => {
          for (const { seq, ...key } of open) this.hinted(key, seq);
        },
        (error: unknown) => this.#deps.onError(error, 'open payments not read: read again at the next sweep'),
      )
      .finally(() => {
        this.#sweeping = false;
      });
  }

  /** Reads again what could not be read (a hint's events, a resynchronisation): called on a timer. */
  retry(): void {
    const unread = [...this.#unread.values()];
    this.#unread.clear();
    for (const { key, seq } of unread) this.hinted(key, seq);
    const from = this.#resyncFrom;
    this.#resyncFrom = undefined;
    if (from !== undefined) this.resync(from);
  }
}
