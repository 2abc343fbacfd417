import type { Migration } from '../../db/index.js';

/**
 * The sandbox Push service's tables. Message content lives once per send
 * (`push_sends`), not once per number, so a 10,000-number batch is one wide
 * row plus 10,000 narrow ones. `next_at` is when the simulated phones move a
 * message on next (NULL once it has nowhere to go on its own).
 */
export const pushMigrations: readonly Migration[] = [
  {
    id: '001-push',
    sql: `
CREATE TABLE push_accounts (
  login TEXT PRIMARY KEY,
  partner TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  password_reset_at TIMESTAMPTZ,
  callback_url TEXT,
  callback_secret TEXT NOT NULL,
  single_interval_ms INTEGER NOT NULL,
  batch_interval_ms INTEGER NOT NULL,
  simulate_delivery BOOLEAN NOT NULL,
  last_batch_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE push_sends (
  send_id TEXT PRIMARY KEY,
  login TEXT NOT NULL REFERENCES push_accounts (login),
  kind TEXT NOT NULL,
  sub_id TEXT NOT NULL,
  title TEXT NOT NULL,
  text TEXT NOT NULL,
  deeplink TEXT,
  accepted INTEGER NOT NULL,
  created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX push_sends_login ON push_sends (login, sub_id);
CREATE TABLE push_messages (
  message_id TEXT PRIMARY KEY,
  send_id TEXT NOT NULL REFERENCES push_sends (send_id),
  login TEXT NOT NULL,
  sub_id TEXT NOT NULL,
  msisdn TEXT NOT NULL,
  status TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  next_at TIMESTAMPTZ
);
CREATE INDEX push_messages_due ON push_messages (login, next_at) WHERE next_at IS NOT NULL;
CREATE INDEX push_messages_inbox ON push_messages (msisdn, created_at);
CREATE INDEX push_messages_sub ON push_messages (login, sub_id);
CREATE TABLE push_single_last (
  login TEXT NOT NULL,
  sub_id TEXT NOT NULL,
  msisdn TEXT NOT NULL,
  sent_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (login, sub_id, msisdn)
);
CREATE TABLE push_idempotency (
  login TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  response TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (login, idempotency_key)
);
CREATE TABLE push_phones (
  msisdn TEXT PRIMARY KEY,
  state TEXT NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
)`,
  },
];
