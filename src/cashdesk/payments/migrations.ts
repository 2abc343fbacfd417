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
  {
    // Ownership by lease: the instance driving a payment (owner), a fencing epoch bumped by every claim, and the
    // lease's end in the database's time. `active`: the payment needs a driver (a call or a result may still come);
    // `wanted`: another instance holds an intent for it and asks the owner to hand it over. `seq`: the last event's.
    // cashdesk_pay_states: every verified webhook state, kept so whichever instance drives the payment reads it.
    id: '002-payment-leases-and-events',
    sql: `ALTER TABLE cashdesk_payments
      ADD COLUMN IF NOT EXISTS owner TEXT,
      ADD COLUMN IF NOT EXISTS epoch BIGINT NOT NULL DEFAULT 0,
      ADD COLUMN IF NOT EXISTS lease_until TIMESTAMPTZ,
      ADD COLUMN IF NOT EXISTS active BOOLEAN NOT NULL DEFAULT FALSE,
      ADD COLUMN IF NOT EXISTS wanted BOOLEAN NOT NULL DEFAULT FALSE,
      ADD COLUMN IF NOT EXISTS seq BIGINT NOT NULL DEFAULT 0;
    UPDATE cashdesk_payments SET active = open;
    CREATE INDEX IF NOT EXISTS cashdesk_payments_leases ON cashdesk_payments (lease_until) WHERE active;
    CREATE INDEX IF NOT EXISTS cashdesk_payments_owner ON cashdesk_payments (owner) WHERE owner IS NOT NULL;
    CREATE TABLE IF NOT EXISTS cashdesk_payment_events (
      till_id TEXT NOT NULL,
      payment_id TEXT NOT NULL,
      seq BIGINT NOT NULL,
      body JSONB NOT NULL,
      at TIMESTAMPTZ NOT NULL DEFAULT now(),
      PRIMARY KEY (till_id, payment_id, seq)
    );
    CREATE TABLE IF NOT EXISTS cashdesk_pay_states (
      transaction_id TEXT NOT NULL,
      status TEXT NOT NULL,
      state JSONB NOT NULL,
      received_at TIMESTAMPTZ NOT NULL DEFAULT now(),
      PRIMARY KEY (transaction_id, status)
    )`,
  },
];
