import type { PaymentView } from '../../contracts/cashdesk-payments.js';
import type { AuditRecord } from '../back-office/audit-log.js';
import type { AuditedIntent, IntentName } from './intents.js';

/**
 * The intents whose `ok` audit record the payments write themselves, in the statement that writes the payment's
 * state after the intent (its effect), so that one is never stored without the other: the refunds, where money
 * moves by the kit's own decision. The other audited intents are recorded after they settle (auditedPayments).
 */
export const AUDITED_IN_WRITE: ReadonlySet<IntentName> = new Set<AuditedIntent>(['refund']);

/** The audit record of an intent that answered `view`: made where the call runs (its caller, its request id). */
export type RecordOf = (view: PaymentView) => AuditRecord;

/** How the payments make the audit record of an intent of {@link AUDITED_IN_WRITE} that succeeded. */
export interface IntentAudit {
  /** The record maker of `name`, run for `tillId` with `params`. */
  recordOf(name: AuditedIntent, tillId: string, params: unknown): RecordOf;
}

/** An audit record as the store inserts it (jsonb_to_recordset's columns). */
export function auditRow(record: AuditRecord): Record<string, unknown> {
  return {
    actor_kind: record.actor.kind,
    actor_id: record.actor.id,
    address: record.address,
    action: record.action,
    till_id: record.tillId,
    payment_id: record.paymentId,
    refund_id: record.refundId,
    amount: record.amount,
    outcome: record.outcome,
    request_id: record.requestId,
  };
}

/** The CTE that appends the audit records of the payment rows `u` updated (its `audit` column): none, none added. */
export const AUDIT_INSERT = `, a AS (
         INSERT INTO cashdesk_audit (actor_kind, actor_id, address, action, till_id, payment_id, refund_id, amount,
           outcome, request_id)
         SELECT x.actor_kind, x.actor_id, x.address, x.action, x.till_id, x.payment_id, x.refund_id, x.amount,
           x.outcome, x.request_id
         FROM u, jsonb_to_recordset(u.audit) AS x(actor_kind text, actor_id text, address text, action text,
           till_id text, payment_id text, refund_id text, amount bigint, outcome text, request_id text)
       )`;
