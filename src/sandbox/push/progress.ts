import type { Logger } from 'pino';
import type { Database, Queryable } from '../../db/index.js';
import { yieldToIo, type Outbox } from '../outbox/outbox.js';
import { enqueueCallbacks, type CallbackTarget, type StatusChange } from './events.js';
import { DELIVERED_AFTER_MS } from './send.js';

/** Options of {@link PhoneSimulator}. */
export interface PhoneSimulatorOptions {
  db: Database;
  outbox: Outbox;
  clock: () => number;
  logger: Logger;
  timeScale: number;
  /** How often due messages are looked for. Default 50 ms. */
  pollMs?: number;
  /**
   * Messages moved per transaction. Default 2,000: big enough to be quick, small enough not to hold PGlite's one
   * connection long.
   */
  chunk?: number;
  /** Called after a transaction moved messages (the pages' change notice). Default none. */
  onMoved?: () => void;
}

/** Loads the callback target inside the transaction, so a PATCHed URL applies from the next change on. */
export async function callbackTarget(tx: Queryable, login: string): Promise<CallbackTarget | undefined> {
  const { rows } = await tx.query<{ callback_url: string | null; callback_secret: string }>(
    'SELECT callback_url, callback_secret FROM push_accounts WHERE login = $1',
    [login],
  );
  const row = rows[0];
  return row && { login, callbackUrl: row.callback_url, callbackSecret: row.callback_secret };
}

/**
 * The simulated phones: moves due messages QUEUED -> SENT -> DELIVERED (or
 * FAILED when the phone is unreachable), a chunk per transaction with the
 * callbacks of that chunk, only for accounts whose simulateDelivery is on.
 * Rows are claimed with SKIP LOCKED, so two sandboxes on one PostgreSQL never
 * move one message twice.
 */
export class PhoneSimulator {
  readonly #options: Required<Omit<PhoneSimulatorOptions, 'onMoved'>> & Pick<PhoneSimulatorOptions, 'onMoved'>;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = true;
  #closed = false;

  constructor(options: PhoneSimulatorOptions) {
    this.#options = { pollMs: 50, chunk: 2_000, ...options };
  }

  /** Starts polling. */
  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#timer = setInterval(() => this.#tick(), this.#options.pollMs);
    this.#timer.unref();
  }

  /** Stops polling and waits for the chunk under way. */
  async close(): Promise<void> {
    this.#stopped = true;
    this.#closed = true;
    clearInterval(this.#timer);
    await this.#running;
  }

  #tick(): void {
    if (this.#running || this.#stopped) return;
    this.#running = this.runDue()
      .then(
        () => undefined,
        (error: unknown) => {
          if (!this.#stopped) this.#logger.warn({ err: error }, 'push simulator run failed');
        },
      )
      .finally(() => {
        this.#running = undefined;
      });
  }

  get #logger(): Logger {
    return this.#options.logger;
  }

  /** Moves every message due now, account by account, chunk by chunk; returns how many moved. */
  async runDue(): Promise<number> {
    // Only the accounts with a message due: most ticks find none, and then cost this one read (on the due index),
    // not a write transaction per account.
    const { rows } = await this.#options.db.query<{ login: string }>(
      `SELECT a.login FROM push_accounts a
       WHERE a.simulate_delivery
         AND EXISTS (SELECT 1 FROM push_messages m WHERE m.login = a.login AND m.next_at <= $1)
       ORDER BY a.login`,
      [new Date(this.#options.clock())],
    );
    let moved = 0;
    for (const { login } of rows) {
      for (;;) {
        if (this.#closed) return moved;
        const n = await this.#step(login);
        moved += n;
        if (n < this.#options.chunk) break;
        await yieldToIo();
      }
    }
    return moved;
  }

  async #step(login: string): Promise<number> {
    const now = this.#options.clock();
    const changes = await this.#options.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ message_id: string; sub_id: string; msisdn: string; status: string }>(
        `WITH due AS (
           SELECT message_id, msisdn, status FROM push_messages
           WHERE login = $1 AND next_at <= $2 ORDER BY next_at LIMIT $3 FOR UPDATE SKIP LOCKED
         )
         UPDATE push_messages m SET
           status = CASE WHEN p.state = 'unreachable' THEN 'FAILED' WHEN due.status = 'QUEUED' THEN 'SENT' ELSE
             'DELIVERED' END,
           updated_at = $2,
           next_at = CASE WHEN due.status = 'QUEUED' AND p.state IS DISTINCT FROM 'unreachable'
                          THEN $2::timestamptz + $4::double precision * interval '1 millisecond' END
         FROM due LEFT JOIN push_phones p ON p.msisdn = due.msisdn
         WHERE m.message_id = due.message_id
         RETURNING m.message_id, m.sub_id, m.msisdn, m.status`,
        [login, new Date(now), this.#options.chunk, DELIVERED_AFTER_MS / this.#options.timeScale],
      );
      const at = new Date(now);
      const events: StatusChange[] = [];
      for (const r of rows) {
        if (r.status === 'DELIVERED' || r.status === 'FAILED') {
          events.push({
            messageId: r.message_id,
            subId: r.sub_id,
            msisdn: r.msisdn,
            type: r.status === 'DELIVERED' ? 'push.delivered' : 'push.failed',
            occurredAt: at,
          });
        }
      }
      if (events.length > 0) {
        const target = await callbackTarget(tx, login);
        if (target) await enqueueCallbacks(this.#options.outbox, tx, target, events);
      }
      return { moved: rows.length, events: events.length };
    });
    if (changes.events > 0) this.#options.outbox.kick();
    if (changes.moved > 0) this.#options.onMoved?.();
    return changes.moved;
  }
}
