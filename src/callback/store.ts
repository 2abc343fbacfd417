import type { CallbackEvent } from '../contracts/callback/index.js';
import { migrate, type Database } from '../db/index.js';
import { CALLBACK_MIGRATIONS } from './migrations.js';
import type { MessageDeliveryState } from './schemas.js';

interface QueuedInsert {
  event: CallbackEvent;
  body: string;
  receivedAt: Date;
  resolve(stored: boolean): void;
  reject(error: unknown): void;
}

/** A stored event the handler has yet to take. */
export interface PendingEvent {
  event: CallbackEvent;
  attempts: number;
}

const iso = (value: unknown): string =>
  value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();

/**
 * The receiver's durable event table (PGlite or PostgreSQL). An event is
 * stored once per `eventId` (the `webhook-id`), whatever the number of deliveries.
 */
export class CallbackStore {
  readonly db: Database;

  constructor(db: Database) {
    this.db = db;
  }

  /** Creates or updates the tables. */
  async migrate(): Promise<void> {
    await migrate(this.db, 'callback', CALLBACK_MIGRATIONS);
  }

  /**
   * Stores an event; resolves `false` when that `eventId` is already stored
   * (a redelivery: nothing changes). Resolves once the row is committed.
   * Events arriving while a write is under way are written together in the
   * next statement (group commit): one round trip and one commit for many
   * requests, each still answered only after its own row is committed.
   */
  insert(event: CallbackEvent, body: string, receivedAt: Date): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.#queue.push({ event, body, receivedAt, resolve, reject });
      if (!this.#writing) void this.#writeQueued();
    });
  }

  readonly #queue: QueuedInsert[] = [];
  #writing = false;

  async #writeQueued(): Promise<void> {
    this.#writing = true;
    while (this.#queue.length > 0) {
      const group = this.#queue.splice(0, 1000);
      // The first of a repeated id is written; the others of this group are redeliveries.
      const first = new Map<string, QueuedInsert>();
      for (const item of group) if (!first.has(item.event.eventId)) first.set(item.event.eventId, item);
      const rows = [...first.values()];
      try {
        const { rows: inserted } = await this.db.query<{ event_id: string }>(
          `INSERT INTO callback_events (event_id, type, message_id, sub_id, msisdn, occurred_at, received_at, body,
            next_attempt_at)
           SELECT e, t, m, s, n, o, r, b, r FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[],
             $6::timestamptz[], $7::timestamptz[], $8::text[])
             AS x(e, t, m, s, n, o, r, b)
           ON CONFLICT (event_id) DO NOTHING RETURNING event_id`,
          [
            rows.map((i) => i.event.eventId),
            rows.map((i) => i.event.type),
            rows.map((i) => i.event.messageId),
            rows.map((i) => i.event.subId),
            rows.map((i) => i.event.msisdn),
            rows.map((i) => new Date(i.event.occurredAt)),
            rows.map((i) => i.receivedAt),
            rows.map((i) => i.body),
          ],
        );
        const stored = new Set(inserted.map((r) => r.event_id));
        for (const item of group)
          item.resolve(first.get(item.event.eventId) === item && stored.has(item.event.eventId));
      } catch (error) {
        for (const item of group) item.reject(error);
      }
    }
    this.#writing = false;
  }

  /** The state of a message from its events; undefined when none was received. */
  async messageState(messageId: string): Promise<MessageDeliveryState | undefined> {
    const { rows } = await this.db.query<Record<string, unknown>>(
      `SELECT event_id, type, sub_id, msisdn, occurred_at, received_at FROM callback_events
       WHERE message_id = $1 ORDER BY occurred_at, received_at, event_id`,
      [messageId],
    );
    const last = rows.at(-1);
    if (last === undefined) return undefined;
    const at = (type: string) => {
      const row = rows.findLast((r) => r.type === type);
      return row === undefined ? null : iso(row.occurred_at);
    };
    const readAt = at('push.read');
    const latest = rows.findLast((r) => r.type === 'push.delivered' || r.type === 'push.failed');
    return {
      messageId,
      subId: String(last.sub_id),
      msisdn: String(last.msisdn),
      // Reading implies delivery; otherwise the latest word wins.
      status: readAt !== null ? 'READ' : latest?.type === 'push.failed' ? 'FAILED' : 'DELIVERED',
      deliveredAt: at('push.delivered') ?? readAt,
      readAt,
      failedAt: at('push.failed'),
      updatedAt: iso(last.occurred_at),
      events: rows.map((r) => ({
        eventId: String(r.event_id),
        type: r.type as CallbackEvent['type'],
        occurredAt: iso(r.occurred_at),
        receivedAt: iso(r.received_at),
      })),
    };
  }

  /**
   * Claims up to `limit` events due for the handler, oldest first, by moving
   * their next attempt `leaseMs` ahead: another receiver on the same PostgreSQL
   * skips them, and after a crash mid-handler they come due again.
   */
  async claimDue(now: Date, limit: number, leaseMs: number): Promise<PendingEvent[]> {
    const { rows } = await this.db.query<Record<string, unknown>>(
      `UPDATE callback_events SET next_attempt_at = $2, handler_attempts = handler_attempts + 1 WHERE event_id IN (
         SELECT event_id FROM callback_events WHERE handled_at IS NULL AND next_attempt_at <= $1
         ORDER BY next_attempt_at, received_at, event_id LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING body, handler_attempts, received_at, event_id`,
      [now, new Date(now.getTime() + leaseMs), limit],
    );
    rows.sort(
      (a, b) =>
        iso(a.received_at).localeCompare(iso(b.received_at)) || String(a.event_id).localeCompare(String(b.event_id)),
    );
    return rows.map((r) => ({
      event: JSON.parse(String(r.body)) as CallbackEvent,
      attempts: Number(r.handler_attempts),
    }));
  }

  /** Records that the handler took the event. */
  async markHandled(eventId: string, at: Date): Promise<void> {
    await this.db.query(
      'UPDATE callback_events SET handled_at = $2, next_attempt_at = NULL, last_error = NULL WHERE event_id = $1',
      [eventId, at],
    );
  }

  /** Records a handler failure and when to try again. */
  async markFailed(eventId: string, error: string, nextAttemptAt: Date): Promise<void> {
    await this.db.query('UPDATE callback_events SET next_attempt_at = $2, last_error = $3 WHERE event_id = $1', [
      eventId,
      nextAttemptAt,
      error,
    ]);
  }

  /** Makes claimed events due again now (a stopping dispatcher gives back what it did not handle). */
  async release(eventIds: readonly string[], now: Date): Promise<void> {
    if (eventIds.length === 0) return;
    await this.db.query(
      'UPDATE callback_events SET next_attempt_at = $2, handler_attempts = handler_attempts - 1 WHERE event_id = ' +
        'ANY($1::text[]) AND handled_at IS NULL',
      [eventIds, now],
    );
  }

  /** Counts: events stored, and those the handler has not taken yet. */
  async counts(): Promise<{ events: number; pending: number }> {
    const { rows } = await this.db.query<{ events: number; pending: number }>(
      'SELECT COUNT(*) AS events, COUNT(*) FILTER (WHERE handled_at IS NULL) AS pending FROM callback_events',
    );
    return { events: Number(rows[0]?.events ?? 0), pending: Number(rows[0]?.pending ?? 0) };
  }
}
