import type { Migration } from '../../db/index.js';

/** The outbox's tables: one row per webhook to deliver, one per attempt. */
export const outboxMigrations: readonly Migration[] = [
  {
    id: '001-webhook-deliveries',
    sql: `
CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  topic TEXT NOT NULL,
  owner TEXT NOT NULL,
  event_type TEXT NOT NULL,
  url TEXT NOT NULL,
  secret TEXT NOT NULL,
  body TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending',
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TIMESTAMPTZ NOT NULL,
  last_error TEXT,
  created_at TIMESTAMPTZ NOT NULL,
  delivered_at TIMESTAMPTZ
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
CREATE INDEX webhook_deliveries_owner ON webhook_deliveries (topic, owner, created_at);
CREATE TABLE webhook_attempts (
  delivery_id TEXT NOT NULL REFERENCES webhook_deliveries (id),
  attempt INTEGER NOT NULL,
  at TIMESTAMPTZ NOT NULL,
  http_status INTEGER,
  error TEXT,
  duration_ms INTEGER NOT NULL,
  PRIMARY KEY (delivery_id, attempt)
)`,
  },
  {
    // Sent as X-Request-Id (a Pay event: the id of the request that created the transaction).
    id: '002-delivery-request-id',
    sql: 'ALTER TABLE webhook_deliveries ADD COLUMN request_id TEXT',
  },
];
