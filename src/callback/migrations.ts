import type { Migration } from '../db/index.js';

/** Tables of the Callback receiver (module `callback`). Released ids are never edited: add new ones. */
export const CALLBACK_MIGRATIONS: readonly Migration[] = [
  {
    id: '001-callback-events',
    sql: `
CREATE TABLE callback_events (
  event_id TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  message_id TEXT NOT NULL,
  sub_id TEXT NOT NULL,
  msisdn TEXT NOT NULL,
  occurred_at TIMESTAMPTZ NOT NULL,
  received_at TIMESTAMPTZ NOT NULL,
  body TEXT NOT NULL,
  handled_at TIMESTAMPTZ,
  handler_attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TIMESTAMPTZ,
  last_error TEXT
);
CREATE INDEX callback_events_message ON callback_events (message_id, occurred_at);
CREATE INDEX callback_events_pending ON callback_events (next_attempt_at) WHERE handled_at IS NULL;
`,
  },
];
