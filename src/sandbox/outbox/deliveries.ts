/** Reading the outbox's deliveries and their attempts back, as the simulator API lists them. */
import type { Database } from '../../db/index.js';

/** A delivery and its attempts, as listed by the simulator API. */
export interface Delivery {
  id: string;
  topic: string;
  owner: string;
  eventType: string;
  url: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: string | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
  body: string;
  history: { attempt: number; at: string; httpStatus: number | null; error: string | null; durationMs: number }[];
}

/** Which deliveries {@link listDeliveries} returns: a topic, an owner or one id; at most `limit` (default 100). */
export interface DeliveryFilter {
  topic?: string;
  owner?: string;
  id?: string;
  limit?: number;
}

const toIso = (value: unknown): string | null =>
  value instanceof Date ? value.toISOString() : value == null ? null : String(value);

/** Deliveries of a topic (and owner, or one id), newest first, with their attempts. */
export async function listDeliveries(db: Database, filter: DeliveryFilter): Promise<Delivery[]> {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT * FROM webhook_deliveries WHERE ($1::text IS NULL OR topic = $1) AND ($2::text IS NULL OR owner = $2)
     AND ($4::text IS NULL OR id = $4) ORDER BY created_at DESC, id LIMIT $3`,
    [filter.topic ?? null, filter.owner ?? null, filter.limit ?? 100, filter.id ?? null],
  );
  if (rows.length === 0) return [];
  const attempts = await db.query<Record<string, unknown>>(
    'SELECT * FROM webhook_attempts WHERE delivery_id = ANY($1::text[]) ORDER BY delivery_id, attempt',
    [rows.map((r) => r.id)],
  );
  return rows.map((r) => ({
    id: String(r.id),
    topic: String(r.topic),
    owner: String(r.owner),
    eventType: String(r.event_type),
    url: String(r.url),
    status: r.status as Delivery['status'],
    attempts: Number(r.attempts),
    nextAttemptAt: r.status === 'pending' ? toIso(r.next_attempt_at) : null,
    lastError: (r.last_error as string | null) ?? null,
    createdAt: toIso(r.created_at)!,
    deliveredAt: toIso(r.delivered_at),
    body: String(r.body),
    history: attempts.rows
      .filter((a) => a.delivery_id === r.id)
      .map((a) => ({
        attempt: Number(a.attempt),
        at: toIso(a.at)!,
        httpStatus: (a.http_status as number | null) ?? null,
        error: (a.error as string | null) ?? null,
        durationMs: Number(a.duration_ms),
      })),
  }));
}
