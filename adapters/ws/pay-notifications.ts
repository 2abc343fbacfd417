import type { Logger } from 'pino';
import type { SessionUpdate } from '../../src/contracts/cashdesk-payments.js';
import type { CashDeskService } from '../../src/cashdesk/service.js';
import { isDatabaseUnavailable } from '../../src/db/unavailable.js';
import { backoffDelay } from '../../src/net/backoff.js';
import type { DatabaseNotice } from './database-notice.js';

/** The notification a till gets for every phase change and session event of its payments. */
export const SESSION_UPDATED = 'pay.sessionUpdated';

/** `{"jsonrpc":"2.0","method":"pay.sessionUpdated","params":{...}}` (a notification: no id, no answer). */
export function sessionUpdatedText(update: SessionUpdate): string {
  return JSON.stringify({ jsonrpc: '2.0', method: SESSION_UPDATED, params: update });
}

/**
 * Waits between a connection's subscription attempts while they fail: jittered, doubled from `firstMs` up to `maxMs`.
 */
export interface SubscribeRetry {
  firstMs: number;
  maxMs: number;
}

/** The bridge's default {@link SubscribeRetry}: soon after a short outage, at most every 10 s in a long one. */
export const SUBSCRIBE_RETRY: SubscribeRetry = { firstMs: 500, maxMs: 10_000 };

/** What {@link followPayments} tells beside the connection's log, and how it retries. */
export interface FollowOptions {
  /** Told when a subscription is refused for the database's sake, and when one succeeds. */
  database?: DatabaseNotice;
  retry?: SubscribeRetry;
}

/**
 * Sends a connected till its payments' updates for as long as the connection
 * lives, beginning with the current state of each open payment (a till that
 * reconnects, here or to another instance, learns where each stands).
 *
 * The subscription reads the database. When it fails (the database is down
 * while the till connects), the connection stays open, still answers
 * `barcode.verify` (and `pay.*` with `DATABASE_UNAVAILABLE`), and the
 * subscription is tried again with backoff until it succeeds or the
 * connection closes: the till then gets its payments' current states, as on a
 * reconnection. Nothing here can reject unhandled, whatever the payments throw.
 */
export function followPayments(
  service: CashDeskService,
  tillId: string,
  send: (text: string, paymentId: string) => void,
  closed: Promise<void>,
  log: Logger,
  options: FollowOptions = {},
): void {
  const payments = service.payments;
  if (payments === undefined) return;
  const retry = options.retry ?? SUBSCRIBE_RETRY;
  let open = true;
  let unsubscribe: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  let failing = false;
  void closed.then(() => {
    open = false;
    clearTimeout(timer);
    unsubscribe?.();
  });
  const attempt = (round: number): void => {
    let subscribing: Promise<() => void>;
    try {
      subscribing = payments.subscribe(tillId, (update) => send(sessionUpdatedText(update), update.paymentId));
    } catch (error) {
      subscribing = Promise.reject(error);
    }
    subscribing.then(
      (off) => {
        if (!open) {
          off();
          return;
        }
        unsubscribe = off;
        options.database?.answered();
        if (failing) log.info('payment updates resumed for this connection');
      },
      (error: unknown) => {
        if (!open) return;
        // The database being down is told once for the whole bridge; anything else once per connection.
        if (isDatabaseUnavailable(error) && options.database !== undefined) options.database.refused();
        else if (!failing) log.warn({ err: error }, 'payment updates unavailable for this connection: retrying');
        failing = true;
        const policy = { max: Infinity, baseMs: retry.firstMs, maxMs: retry.maxMs };
        timer = setTimeout(() => attempt(Math.min(round + 1, 31)), backoffDelay(round, policy, Math.random));
        timer.unref();
      },
    );
  };
  attempt(1);
}
