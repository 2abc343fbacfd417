import type { Logger } from 'pino';
import type { CallbackEvent } from '../contracts/callback/index.js';
import type { CallbackStore } from './store.js';
import { Poller } from '../db/poller.js';
import { backoffDelay } from '../net/backoff.js';

/** The merchant's code run for each stored event. Throwing (or rejecting) makes it come again later. */
export type CallbackHandler = (event: CallbackEvent, info: { attempt: number }) => void | Promise<void>;

/** Options of {@link CallbackDispatcher}. */
export interface DispatcherOptions {
  store: CallbackStore;
  handler: CallbackHandler;
  logger: Logger;
  clock: () => number;
  /** Ceiling of the first wait after a handler failure, in ms (with jitter), doubling each failure. Default 1 000. */
  retryBaseMs?: number;
  /** Longest wait between two handler attempts, in ms. Default 300 000. */
  retryMaxMs?: number;
  /** How often due events are looked for, besides right after one is stored. Default 1 000. */
  pollMs?: number;
  /** Time an event is reserved for one handler call; after a crash it comes due again then. Default 60 000. */
  leaseMs?: number;
}

/** Events claimed at a time. */
const CLAIM_LIMIT = 16;

/**
 * Hands stored events to the handler, oldest first, one at a time (so a
 * message's delivery comes before its reading). A failed call is recorded and
 * retried with a doubling, jittered wait, forever: the event stays stored and is never
 * lost. Delivery to the handler is at least once (a crash mid-call repeats it):
 * make the handler idempotent by `eventId`.
 */
export class CallbackDispatcher {
  readonly #options: Required<DispatcherOptions>;
  readonly #poller: Poller;

  constructor(options: DispatcherOptions) {
    this.#options = { retryBaseMs: 1_000, retryMaxMs: 300_000, pollMs: 1_000, leaseMs: 60_000, ...options };
    this.#poller = new Poller(
      () => this.#drain(),
      this.#options.pollMs,
      (error) => this.#options.logger.warn({ err: error }, 'callback dispatch run failed'),
    );
  }

  /** Starts handing events over, the backlog first. */
  start(): void {
    this.#poller.start();
  }

  /** Looks for due events now (coalesced with a run under way). */
  kick(): void {
    this.#poller.kick();
  }

  /** Stops, letting the handler call under way finish. */
  async close(): Promise<void> {
    await this.#poller.stop();
  }

  async #drain(): Promise<void> {
    const { store, handler, clock, leaseMs, retryBaseMs, retryMaxMs, logger } = this.#options;
    while (!this.#poller.stopped) {
      const due = await store.claimDue(new Date(clock()), CLAIM_LIMIT, leaseMs);
      if (due.length === 0) return;
      for (const [i, { event, attempts }] of due.entries()) {
        if (this.#poller.stopped) {
          // Hand back what this run will not get to, so a restart does not wait out the lease.
          await store.release(
            due.slice(i).map((d) => d.event.eventId),
            new Date(clock()),
          );
          return;
        }
        try {
          await handler(event, { attempt: attempts });
          await store.markHandled(event.eventId, new Date(clock()));
        } catch (error) {
          const wait = backoffDelay(
            Math.min(31, attempts),
            { max: Infinity, baseMs: retryBaseMs, maxMs: retryMaxMs },
            Math.random,
          );
          const reason = error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 500) : 'handler failed';
          // The event id and the error only: the event's content stays out of the logs.
          logger.warn(
            { eventId: event.eventId, attempt: attempts, retryInMs: wait, error: reason },
            'callback handler failed; will retry',
          );
          await store.markFailed(event.eventId, reason, new Date(clock() + wait));
        }
      }
      // Fewer than asked for: nothing else was due. One arriving since has kicked another run, so asking again now
      // would only cost a query per event when they come one at a time (a campaign's callbacks).
      if (due.length < CLAIM_LIMIT) return;
    }
  }
}
