import type { Migration } from '../../db/index.js';

/**
 * The audit log: one row per money-moving intent or refused attempt, numbered by `seq`. Append-only: triggers
 * refuse UPDATE, DELETE and TRUNCATE on the table (SQLSTATE 42501), on PostgreSQL and PGlite alike; only
 * `cashdesk_audit_prune(days)` (the retention setting) deletes, and only rows older than `days`.
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
  {
    // Retention: DELETE passes the trigger only for rows older than the bound cashdesk_audit_prune sets for its own
    // transaction (set_config's third argument); any other DELETE, every UPDATE and TRUNCATE are still refused.
    id: '002-cashdesk-audit-retention',
    // No line of a body ends with a semicolon: migrations are split at one that ends a line.
    sql: `CREATE OR REPLACE FUNCTION cashdesk_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE bound TEXT := current_setting('wpk.audit_prune_before', true); BEGIN
      IF TG_OP = 'DELETE' AND bound IS NOT NULL AND bound <> '' AND OLD.at < bound::timestamptz THEN
      RETURN OLD; END IF; RAISE EXCEPTION 'cashdesk_audit is append-only' USING ERRCODE = '42501'; END $$;
    CREATE OR REPLACE FUNCTION cashdesk_audit_prune(days INT) RETURNS BIGINT LANGUAGE plpgsql AS $$
      DECLARE bound TIMESTAMPTZ; n BIGINT; BEGIN IF days IS NULL OR days < 1 THEN
      RAISE EXCEPTION 'retention must be at least one day' USING ERRCODE = '22023'; END IF; bound := now() -
      make_interval(days => days); PERFORM set_config('wpk.audit_prune_before', bound::text, true); DELETE FROM
      cashdesk_audit WHERE at < bound; GET DIAGNOSTICS n = ROW_COUNT; PERFORM set_config('wpk.audit_prune_before',
      '', true); RETURN n; END $$`,
  },
];
