import type { Migration } from '../../db/index.js';

/**
 * The sandbox Pay service's tables. Amounts are BIGINT kopecks; every state a
 * restart must keep (transactions, the bank's pending answers, refunds, seen
 * token ids) is here, never only in memory.
 */
export const payMigrations: readonly Migration[] = [
  {
    id: '001-pay',
    sql: `
CREATE TABLE pay_partners (
  partner_id TEXT PRIMARY KEY,
  key_hex TEXT NOT NULL,
  webhook_url TEXT,
  webhook_secret TEXT NOT NULL,
  layout JSONB NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE pay_cards (
  partner_id TEXT NOT NULL REFERENCES pay_partners (partner_id),
  card_number TEXT NOT NULL,
  card_key TEXT NOT NULL,
  wallet_pay_is_default BOOLEAN NOT NULL DEFAULT TRUE,
  pay_enabled BOOLEAN NOT NULL DEFAULT TRUE,
  created_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (partner_id, card_number)
);
CREATE TABLE pay_card_sessions (
  partner_id TEXT NOT NULL,
  card_session TEXT NOT NULL,
  card_number TEXT NOT NULL,
  issued_at TIMESTAMPTZ NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL,
  closed_at TIMESTAMPTZ,
  PRIMARY KEY (partner_id, card_session),
  FOREIGN KEY (partner_id, card_number) REFERENCES pay_cards (partner_id, card_number)
);
CREATE TABLE pay_token_ids (
  jti TEXT PRIMARY KEY,
  partner_id TEXT NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX pay_token_ids_expiry ON pay_token_ids (expires_at);
CREATE TABLE pay_tasks (
  partner_id TEXT NOT NULL,
  request_id TEXT NOT NULL,
  task_id TEXT NOT NULL UNIQUE,
  card_session TEXT NOT NULL,
  body_hash TEXT NOT NULL,
  body JSONB NOT NULL,
  response TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (partner_id, request_id)
);
CREATE INDEX pay_tasks_session ON pay_tasks (partner_id, card_session, created_at);
CREATE TABLE pay_transactions (
  transaction_id TEXT PRIMARY KEY,
  partner_id TEXT NOT NULL,
  request_id TEXT NOT NULL,
  card_session TEXT NOT NULL,
  card_number TEXT NOT NULL,
  body_hash TEXT NOT NULL,
  response TEXT NOT NULL,
  provider_id TEXT,
  items JSONB NOT NULL,
  discount_amount BIGINT NOT NULL,
  total_amount BIGINT NOT NULL,
  refunded_amount BIGINT NOT NULL DEFAULT 0,
  status TEXT NOT NULL,
  reason TEXT,
  version INTEGER NOT NULL DEFAULT 1,
  invoice_expires_at TIMESTAMPTZ NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  confirmed_at TIMESTAMPTZ,
  cancelled_by TEXT,
  bank_outcome TEXT,
  bank_delay_ms BIGINT,
  bank_receive_ms BIGINT,
  bank_received_at TIMESTAMPTZ,
  bank_answered_at TIMESTAMPTZ,
  UNIQUE (partner_id, request_id)
);
CREATE INDEX pay_transactions_session ON pay_transactions (partner_id, card_session, status);
CREATE INDEX pay_transactions_card ON pay_transactions (partner_id, card_number, status);
CREATE INDEX pay_transactions_due ON pay_transactions (status, invoice_expires_at);
CREATE TABLE pay_refunds (
  transaction_id TEXT NOT NULL REFERENCES pay_transactions (transaction_id),
  refund_id TEXT NOT NULL,
  seq SERIAL,
  body_hash TEXT NOT NULL,
  amount BIGINT NOT NULL,
  items JSONB,
  response TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (transaction_id, refund_id)
);
CREATE TABLE pay_receipts (
  transaction_id TEXT NOT NULL REFERENCES pay_transactions (transaction_id),
  seq SERIAL,
  receipt JSONB NOT NULL,
  received_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (transaction_id, seq)
);
CREATE TABLE pay_bank (
  id INTEGER PRIMARY KEY,
  mode TEXT NOT NULL,
  delay_ms BIGINT NOT NULL,
  receive_ms BIGINT NOT NULL
)`,
  },
  {
    id: '002-card-providers',
    sql: 'ALTER TABLE pay_cards ADD COLUMN providers JSONB',
  },
  {
    // Partners stored before schemes existed keep the one they had (card-bound); new ones get the default.
    // A card of an rfc6238 partner has no card key of its own.
    id: '003-partner-scheme',
    sql: `ALTER TABLE pay_partners ADD COLUMN scheme TEXT NOT NULL DEFAULT 'card-bound';
ALTER TABLE pay_partners ALTER COLUMN scheme SET DEFAULT 'rfc6238';
ALTER TABLE pay_cards ALTER COLUMN card_key DROP NOT NULL`,
  },
  {
    // Document section 5: after an invalid token "no further action with the card is possible"; kept like any other
    // state, so a restart (or another sandbox on the same PostgreSQL) keeps refusing the card session.
    id: '004-card-session-blocked',
    sql: 'ALTER TABLE pay_card_sessions ADD COLUMN blocked_at TIMESTAMPTZ',
  },
  {
    // The X-Request-Id of the /checkout that created the transaction, sent with its webhooks, so one id
    // follows a payment through the partner's logs and the sandbox's.
    id: '005-transaction-request-id',
    sql: 'ALTER TABLE pay_transactions ADD COLUMN http_request_id TEXT',
  },
  {
    // Refunds that settle later (the foreign dialect): a refund is pending until settles_at, then takes its outcome.
    // Refunds made before settled at once, as they always did. How the next ones settle is sandbox-wide, like the bank.
    id: '006-deferred-refunds',
    sql: `ALTER TABLE pay_refunds ADD COLUMN state TEXT NOT NULL DEFAULT 'succeeded';
ALTER TABLE pay_refunds ADD COLUMN outcome TEXT;
ALTER TABLE pay_refunds ADD COLUMN settles_at TIMESTAMPTZ;
CREATE INDEX pay_refunds_due ON pay_refunds (state, settles_at);
ALTER TABLE pay_bank ADD COLUMN refund_mode TEXT NOT NULL DEFAULT 'approve';
ALTER TABLE pay_bank ADD COLUMN refund_delay_ms BIGINT NOT NULL DEFAULT 0`,
  },
  {
    // The kit's receiptId: a repeat of a receipt (its answer was lost) is answered without keeping it twice.
    id: '007-receipt-id',
    sql: `ALTER TABLE pay_receipts ADD COLUMN receipt_id TEXT;
CREATE UNIQUE INDEX pay_receipts_receipt_id ON pay_receipts (transaction_id, receipt_id)`,
  },
];
