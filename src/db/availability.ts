import { backoffDelay } from '../net/backoff.js';

/** What {@link Availability} logs with, one line per state change: a pino logger fits. */
export interface AvailabilityLogger {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

/** Options of {@link Availability}. */
export interface AvailabilityOptions {
  /** A cheap round trip (`SELECT 1`): resolves when the database answers. */
  probe: () => Promise<unknown>;
  /** Tells whether a probe's error is the connection's (a reason) or not (undefined). */
  classify: (error: unknown) => string | undefined;
  logger: AvailabilityLogger;
  /** Where the database is, for the log lines; never with a password. */
  where: string;
  /** Ceiling of the first wait between probes while down (jittered), doubled up to `maxDelayMs`. Default 250 ms. */
  firstDelayMs?: number;
  /** Longest wait between probes while down. Default 2000 ms. */
  maxDelayMs?: number;
  /** Now, in ms, for the length of an outage in the log. Default `Date.now`. */
  clock?: () => number;
}

/**
 * Whether a database answers, as its queries and a probe find: one warning
 * when it stops answering, one line when it answers again, never a line per
 * failed query. While it is down a probe runs with backoff (250 ms doubling to
 * 2 s), so it is found back even when nothing queries it, and the pool
 * reconnects on the way; the probe's timer never holds the process open.
 */
export class Availability {
  readonly #options: Required<Omit<AvailabilityOptions, 'clock'>> & { clock: () => number };
  #downSince: number | undefined;
  #timer: NodeJS.Timeout | undefined;
  #probing = false;
  #closed = false;

  constructor(options: AvailabilityOptions) {
    this.#options = { firstDelayMs: 250, maxDelayMs: 2_000, clock: Date.now, ...options };
  }

  /** True while the last word (a query or a probe) was that the database does not answer. */
  get down(): boolean {
    return this.#downSince !== undefined;
  }

  /** A query (or the probe) failed for the connection's sake: the first such failure is logged, and probing starts. */
  failed(reason: string): void {
    if (this.#closed || this.#downSince !== undefined) return;
    this.#downSince = this.#options.clock();
    this.#options.logger.warn(
      { database: this.#options.where, reason },
      'database unreachable: its queries fail with DATABASE_UNAVAILABLE until it answers again',
    );
    this.#schedule(1);
  }

  /** A query answered: the database is back, if it was down. */
  answered(): void {
    if (this.#downSince === undefined) return;
    const downMs = this.#options.clock() - this.#downSince;
    this.#downSince = undefined;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!this.#closed) this.#options.logger.info({ database: this.#options.where, downMs }, 'database reachable again');
  }

  /**
   * A connection that nobody was using broke (the server restarted or cut it):
   * the database is probed at once, and is marked down only if the probe fails,
   * so a single connection cut on a live server is not an outage.
   */
  suspect(): void {
    if (this.#closed || this.#downSince !== undefined || this.#probing) return;
    void this.#probe(1);
  }

  /** Stops probing (the pool is closing). */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Probes again after the backoff of retry number `retry` (1-based). */
  #schedule(retry: number): void {
    if (this.#closed || this.#timer !== undefined) return;
    const policy = { max: Infinity, baseMs: this.#options.firstDelayMs, maxMs: this.#options.maxDelayMs };
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        void this.#probe(Math.min(retry + 1, 31));
      },
      backoffDelay(retry, policy, Math.random),
    );
    this.#timer.unref();
  }

  async #probe(nextRetry: number): Promise<void> {
    if (this.#closed || this.#probing) return;
    this.#probing = true;
    try {
      await this.#options.probe();
      this.answered();
    } catch (error) {
      const reason = this.#options.classify(error);
      // Another failure (a bad password after a restart) is not this state's: its queries say what it is.
      if (reason !== undefined) this.failed(reason);
      if (this.#downSince !== undefined) this.#schedule(nextRetry);
    } finally {
      this.#probing = false;
    }
  }
}
