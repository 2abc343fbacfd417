import type { Migration } from '../../db/index.js';

/** The cash desk server's payment sessions: one row per till payment, keyed by the till's own paymentId. */
export const paymentMigrations: readonly Migration[] = [
  {
    id: '001-cashdesk-payments',
    sql: `CREATE TABLE IF NOT EXISTS cashdesk_payments (
      till_id TEXT NOT NULL,
      payment_id TEXT NOT NULL,
      phase TEXT NOT NULL,
      open BOOLEAN NOT NULL,
      card_number TEXT,
      receipt_sent BOOLEAN NOT NULL DEFAULT FALSE,
      snapshot JSONB NOT NULL,
      view JSONB NOT NULL,
      created_at TIMESTAMPTZ NOT NULL,
      updated_at TIMESTAMPTZ NOT NULL,
      PRIMARY KEY (till_id, payment_id)
    );
    CREATE INDEX IF NOT EXISTS cashdesk_payments_open ON cashdesk_payments (till_id) WHERE open`,
  },
];
