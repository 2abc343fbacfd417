import type { Migration } from '../../db/index.js';

/**
 * The audit log: one row per money-moving intent or refused attempt, numbered by `seq`. Append-only: triggers
 * refuse UPDATE, DELETE and TRUNCATE on the table (SQLSTATE 42501), on PostgreSQL and PGlite alike.
 */
export const auditMigrations: readonly Migration[] = [
  {
    id: '001-cashdesk-audit',
    sql: `CREATE TABLE IF NOT EXISTS cashdesk_audit (
      seq BIGSERIAL PRIMARY KEY,
      at TIMESTAMPTZ NOT NULL DEFAULT now(),
      actor_kind TEXT NOT NULL,
      actor_id TEXT NOT NULL,
      address TEXT,
      action TEXT NOT NULL,
      till_id TEXT,
      payment_id TEXT,
      refund_id TEXT,
      amount BIGINT,
      outcome TEXT NOT NULL,
      request_id TEXT
    );
    CREATE INDEX IF NOT EXISTS cashdesk_audit_at ON cashdesk_audit (at);
    CREATE INDEX IF NOT EXISTS cashdesk_audit_payment ON cashdesk_audit (till_id, payment_id);
    -- On one line: migrations are split at a semicolon that ends a line.
    CREATE OR REPLACE FUNCTION cashdesk_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'cashdesk_audit is append-only' USING ERRCODE = '42501'; END $$;
    DROP TRIGGER IF EXISTS cashdesk_audit_no_change ON cashdesk_audit;
    CREATE TRIGGER cashdesk_audit_no_change BEFORE UPDATE OR DELETE ON cashdesk_audit
      FOR EACH ROW EXECUTE FUNCTION cashdesk_audit_append_only();
    DROP TRIGGER IF EXISTS cashdesk_audit_no_truncate ON cashdesk_audit;
    CREATE TRIGGER cashdesk_audit_no_truncate BEFORE TRUNCATE ON cashdesk_audit
      FOR EACH STATEMENT EXECUTE FUNCTION cashdesk_audit_append_only()`,
  },
];
