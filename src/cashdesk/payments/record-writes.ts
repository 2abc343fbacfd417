import type { SessionUpdate } from '../../contracts/cashdesk-payments.js';
import type { AuditRecord } from '../back-office/audit-log.js';
import { backoffDelay, type RetryPolicy } from '../../net/backoff.js';
import { PaymentsError } from './errors.js';
import type { PaymentWrite } from './store.js';

/** Raised by a write this instance may no longer make: the payment's lease went to another instance. */
export class LeaseLostError extends PaymentsError {
  constructor(paymentId: string) {
    super('PAYMENT_MOVED', `payment ${paymentId} is driven by another instance now`);
  }
}

/** What {@link RecordWrites} needs of its payment. */
export interface RecordWritesDeps {
  paymentId: string;
  /** Writes under the lease; false when the lease was lost. */
  save(write: PaymentWrite): Promise<boolean>;
  /** The payment's state to write now (its events are added here). */
  current(): Omit<PaymentWrite, 'events' | 'audit'>;
  /** A write ended (either way): the payment may have come to rest. */
  written(): void;
  /** These events are stored (told to the till from here on). */
  stored(events: ReadonlyArray<{ seq: number; update: SessionUpdate }>): void;
  /** A write was refused: another instance holds the lease now. */
  lost(): void;
  onError(error: unknown, what: string): void;
}

/** Waits between two tries of a write that failed (the database is away). */
const RETRY: RetryPolicy = { max: Infinity, baseMs: 250, maxMs: 10_000 };

/**
 * The writes of one payment's record, one at a time and in order. Writes
 * coalesce: a queued write takes the record as it is when it runs, with every
 * event not yet written. A write that fails keeps its events for the next one
 * and is tried again with backoff, so nothing told is left unwritten (its audit
 * records too: they go with the state they record); a write refused for a lost
 * lease ends the writing for good.
 */
export class RecordWrites {
  readonly #deps: RecordWritesDeps;
  #events: Array<{ seq: number; update: SessionUpdate }> = [];
  #audit: AuditRecord[] = [];
  #chain: Promise<void> = Promise.resolve();
  #queued: Promise<void> | undefined;
  #pending = 0;
  #lost = false;
  #closed = false;
  #retry: NodeJS.Timeout | undefined;
  #failures = 0;

  constructor(deps: RecordWritesDeps) {
    this.#deps = deps;
  }

  /** Writes under way or queued. */
  get pending(): number {
    return this.#pending;
  }

  /** Whether events wait for a write, or a failed write waits to be tried again: the payment is not at rest. */
  get unwritten(): boolean {
    return this.#events.length > 0 || this.#audit.length > 0 || this.#retry !== undefined;
  }

  /** Whether a write was refused for a lost lease. */
  get lost(): boolean {
    return this.#lost;
  }

  /** Adds an event to the next write. */
  add(seq: number, update: SessionUpdate): void {
    this.#events.push({ seq, update });
  }

  /** Adds an audit record to the next write: stored in its statement, or not at all. */
  audit(record: AuditRecord): void {
    this.#audit.push(record);
  }

  /** The record's first write (its insert), under way: every later write goes after it. */
  first(insert: Promise<unknown>): void {
    this.#track(insert.then(() => undefined));
  }

  /** Writes the current record and its new events after the writes before it; rejects when that write fails. */
  flush(): Promise<void> {
    if (this.#lost) return Promise.reject(new LeaseLostError(this.#deps.paymentId));
    if (this.#queued === undefined) {
      const write = this.#chain.then(() => this.#write());
      this.#queued = write;
      this.#track(write);
    }
    return this.#queued;
  }

  /** Settles once the writes queued so far are done (a failed one too: it was reported). */
  done(): Promise<void> {
    return this.#chain;
  }

  /** Stops the retries (the payment is no longer driven here). */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#retry);
  }

  async #write(): Promise<void> {
    this.#queued = undefined;
    if (this.#lost) throw new LeaseLostError(this.#deps.paymentId);
    const events = this.#events;
    const audit = this.#audit;
    this.#events = [];
    this.#audit = [];
    let written: boolean;
    try {
      written = await this.#deps.save({ ...this.#deps.current(), events, ...(audit.length > 0 ? { audit } : {}) });
    } catch (error) {
      this.#events = [...events, ...this.#events];
      this.#audit = [...audit, ...this.#audit];
      this.#later();
      throw error;
    }
    this.#failures = 0;
    if (!written) {
      this.#lost = true;
      this.close();
      this.#deps.lost();
      throw new LeaseLostError(this.#deps.paymentId);
    }
    if (events.length > 0) this.#deps.stored(events);
  }

  #track(write: Promise<void>): void {
    this.#pending++;
    this.#chain = write.then(
      () => this.#settle(),
      (error: unknown) => {
        if (!(error instanceof LeaseLostError)) this.#deps.onError(error, 'payment write failed');
        this.#settle();
      },
    );
  }

  #settle(): void {
    this.#pending--;
    this.#deps.written();
  }

  #later(): void {
    if (this.#retry !== undefined || this.#closed) return;
    this.#retry = setTimeout(
      () => {
        this.#retry = undefined;
        if (!this.#closed) this.flush().catch(() => {});
      },
      backoffDelay(++this.#failures, RETRY, Math.random),
    );
    this.#retry.unref();
  }
}
