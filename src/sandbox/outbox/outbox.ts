import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { pino } from 'pino';
import type { Database, Queryable } from '../../db/index.js';
import { Poller } from '../../db/poller.js';
import { signWebhook } from '../../webhooks/sign.js';
import { nextDelayMs } from './schedule.js';
import { type Delivery, type DeliveryFilter, listDeliveries } from './deliveries.js';
import { REQUEST_ID_HEADER } from '../../log/request-id.js';
import { ROOT_CONTEXT } from '@opentelemetry/api';
import { clientSpan } from '../../telemetry/client-span.js';

/** A webhook to deliver. */
export interface OutboxMessage {
  /** Who enqueued it: `pay` or `push`. */
  topic: string;
  /** The partner id or Push account login it belongs to, to list by. */
  owner: string;
  /** e.g. `transaction.updated`, `push.delivered`. */
  eventType: string;
  url: string;
  /** `whsec_...` */
  secret: string;
  /** The JSON body, sent byte for byte. */
  payload: unknown;
  /** The webhook id; default a new `msg_...`. Reusing one de-duplicates on the receiver. */
  id?: string;
  /** Sent as `X-Request-Id` (a Pay event: the id of the request that created the transaction). Default none. */
  requestId?: string;
}

/** Options of {@link Outbox}. */
export interface OutboxOptions {
  db: Database;
  clock?: () => number;
  logger?: Logger;
  /** Divides every retry wait (RETRY_SCHEDULE_MS); tests use e.g. 1000. Default 1. */
  timeScale?: number;
  /** How often due deliveries are looked for, besides right after an enqueue. Default 250 ms. */
  pollMs?: number;
  /** Time allowed for one POST. Default 10 s. */
  timeoutMs?: number;
  /** Deliveries sent at once. Default 8. */
  concurrency?: number;
  /** Called with the delivery's topic after each attempt is recorded (the pages' change notices). Default none. */
  onAttempt?: (topic: string) => void;
}

/** Lets pending I/O (requests to the sandbox) run before the next round of work. */
export const yieldToIo = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The sandbox's durable webhook sender. A message is inserted in the same
 * transaction as the change it reports, so none is lost or sent for a change
 * that rolled back; a worker POSTs due ones signed per Standard Webhooks (a
 * fresh timestamp per attempt, the same `webhook-id`), records every attempt,
 * and retries non-2xx answers and timeouts on {@link RETRY_SCHEDULE_MS}.
 * Delivery is at least once: receivers de-duplicate by `webhook-id`.
 */
export class Outbox {
  readonly #db: Database;
  readonly #clock: () => number;
  readonly #logger: Logger;
  readonly #timeScale: number;
  readonly #pollMs: number;
  readonly #timeoutMs: number;
  readonly #concurrency: number;
  readonly #poller: Poller;
  readonly #closeHooks: (() => Promise<void>)[] = [];
  readonly #onAttempt: ((topic: string) => void) | undefined;

  constructor({
    db,
    clock = Date.now,
    logger = pino({ level: 'silent' }),
    timeScale = 1,
    pollMs = 250,
    timeoutMs = 10_000,
    concurrency = 8,
    onAttempt,
  }: OutboxOptions) {
    this.#onAttempt = onAttempt;
    this.#db = db;
    this.#clock = clock;
    this.#logger = logger;
    this.#timeScale = timeScale;
    this.#pollMs = pollMs;
    this.#timeoutMs = timeoutMs;
    this.#concurrency = concurrency;
    this.#poller = new Poller(
      () => this.#drainDue(),
      pollMs,
      (error) => this.#logger.warn({ err: error }, 'outbox run failed'),
    );
  }

  /**
   * Records a message to deliver, inside the caller's transaction `tx`. Call
   * {@link kick} after the transaction commits to send it without waiting for the poll.
   */
  async enqueue(tx: Queryable, message: OutboxMessage): Promise<string> {
    const id = message.id ?? `msg_${randomBytes(12).toString('hex')}`;
    const now = new Date(this.#clock());
    await tx.query(
      `INSERT INTO webhook_deliveries (id, topic, owner, event_type, url, secret, body, next_attempt_at,
        created_at, request_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9) ON CONFLICT (id) DO NOTHING`,
      [
        id,
        message.topic,
        message.owner,
        message.eventType,
        message.url,
        message.secret,
        JSON.stringify(message.payload),
        now,
        message.requestId ?? null,
      ],
    );
    return id;
  }

  /**
   * Records many messages with one multi-row INSERT inside `tx` (the Push
   * simulator moves thousands of messages at a time); same rules as {@link enqueue}.
   */
  async enqueueMany(tx: Queryable, messages: readonly OutboxMessage[]): Promise<string[]> {
    if (messages.length === 0) return [];
    const ids = messages.map((m) => m.id ?? `msg_${randomBytes(12).toString('hex')}`);
    await tx.query(
      `INSERT INTO webhook_deliveries (id, topic, owner, event_type, url, secret, body, next_attempt_at, created_at)
       SELECT t.id, t.topic, t.owner, t.event_type, t.url, t.secret, t.body, $8, $8
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS t(id,
         topic, owner, event_type, url, secret, body)
       ON CONFLICT (id) DO NOTHING`,
      [
        ids,
        messages.map((m) => m.topic),
        messages.map((m) => m.owner),
        messages.map((m) => m.eventType),
        messages.map((m) => m.url),
        messages.map((m) => m.secret),
        messages.map((m) => JSON.stringify(m.payload)),
        new Date(this.#clock()),
      ],
    );
    return ids;
  }

  /** Starts the worker. */
  start(): void {
    this.#poller.start();
  }

  /** Looks for due deliveries now (coalesced with a run already under way). */
  kick(): void {
    this.#poller.kick();
  }

  /**
   * Work that feeds this outbox and must stop before it does (e.g. the Push
   * phone simulator): run first by {@link close}. A module's own `close()`
   * cannot tell which sandbox is closing (modules are shared singletons), the
   * outbox can: there is one per sandbox.
   */
  onClose(hook: () => Promise<void>): void {
    this.#closeHooks.push(hook);
  }

  /** Stops the worker (after the {@link onClose} hooks) and waits for the attempts under way. */
  async close(): Promise<void> {
    const hooks = this.#closeHooks.splice(0);
    for (const hook of hooks) {
      // A hook that fails must not keep the outbox (and so the sandbox's shutdown) from stopping.
      await hook().catch((error: unknown) => this.#logger.warn({ err: error }, 'outbox close hook failed'));
    }
    await this.#poller.stop();
  }

  /** Deliveries of a topic (and owner, or one id), newest first, with their attempts; at most `limit` (default 100). */
  async list(filter: DeliveryFilter = {}): Promise<Delivery[]> {
    return listDeliveries(this.#db, filter);
  }

  /** Makes a failed or pending delivery due now (the simulator's "redeliver"). */
  async redeliver(id: string): Promise<boolean> {
    const { rowCount } = await this.#db.query(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $2 WHERE id = $1 AND status <> 'delivered'`,
      [id, new Date(this.#clock())],
    );
    if (rowCount > 0) this.kick();
    return rowCount > 0;
  }

  async #drainDue(): Promise<void> {
    for (;;) {
      if (this.#poller.stopped) return;
      const now = this.#clock();
      // Claim by pushing next_attempt_at past the POST's timeout: another sandbox on the same
      // PostgreSQL skips these rows, and a crash mid-attempt makes them due again later.
      const { rows } = await this.#db.query<Record<string, unknown>>(
        `UPDATE webhook_deliveries SET next_attempt_at = $2 WHERE id IN (
           SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= $1
           ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING id, topic, url, secret, body, attempts, request_id`,
        [new Date(now), new Date(now + this.#timeoutMs * 2), this.#concurrency],
      );
      if (rows.length === 0) return;
      await Promise.all(rows.map((row) => this.#attempt(row)));
      // PGlite answers without I/O, so a loop of queries would never let the event loop serve requests.
      await yieldToIo();
    }
  }

  async #attempt(row: Record<string, unknown>): Promise<void> {
    const id = String(row.id);
    const body = String(row.body);
    const attempt = Number(row.attempts) + 1;
    const started = this.#clock();
    const headers = signWebhook(String(row.secret), { id, timestampSeconds: Math.floor(started / 1000), body });
    let httpStatus: number | null = null;
    let error: string | null = null;
    const t0 = performance.now();
    try {
      const sent: Record<string, string> = {
        ...headers,
        'content-type': 'application/json',
        'user-agent': 'wallet-partner-kit-sandbox',
        ...(row.request_id == null ? {} : { [REQUEST_ID_HEADER]: String(row.request_id) }),
      };
      // A delivery is a trace of its own (the poll loop is no request's child); the receiver's span joins it.
      const response = await clientSpan(
        {
          name: `webhook ${String(row.topic)}`,
          method: 'POST',
          url: String(row.url),
          headers: sent,
          parent: ROOT_CONTEXT,
          attributes: { 'wpk.webhook.id': id, 'wpk.webhook.attempt': attempt },
        },
        () =>
          fetch(String(row.url), {
            method: 'POST',
            body,
            headers: sent,
            signal: AbortSignal.timeout(this.#timeoutMs),
            redirect: 'manual',
          }),
      );
      httpStatus = response.status;
      await response.body?.cancel();
      if (httpStatus < 200 || httpStatus > 299) error = `HTTP ${httpStatus}`;
    } catch (cause) {
      error =
        (cause as Error).name === 'TimeoutError'
          ? `timeout after ${this.#timeoutMs} ms`
          : `network error: ${(cause as Error).message}`;
    }
    const durationMs = Math.round(performance.now() - t0);
    const delay = error === null ? undefined : nextDelayMs(attempt, this.#timeScale);
    const status = error === null ? 'delivered' : delay === undefined ? 'failed' : 'pending';
    await this.#db.transaction(async (tx) => {
      await tx.query(
        'INSERT INTO webhook_attempts (delivery_id, attempt, at, http_status, error, duration_ms) VALUES ($1, ' +
          '$2, $3, $4, $5, $6) ON CONFLICT DO NOTHING',
        [id, attempt, new Date(started), httpStatus, error, durationMs],
      );
      await tx.query(
        `UPDATE webhook_deliveries SET attempts = $2, status = $3, last_error = $4, next_attempt_at = $5, ` +
          `delivered_at = $6 WHERE id = $1`,
        [
          id,
          attempt,
          status,
          error,
          new Date(this.#clock() + (delay ?? 0)),
          error === null ? new Date(this.#clock()) : null,
        ],
      );
    });
    this.#onAttempt?.(String(row.topic));
    if (error !== null) this.#logger.info({ delivery: id, attempt, error, status }, 'webhook attempt failed');
    if (status === 'pending' && delay !== undefined && delay < this.#pollMs) {
      setTimeout(() => this.kick(), delay).unref();
    }
  }
}
