import type { PaymentView } from '../../contracts/cashdesk-payments.js';
import { KitError } from '../../errors.js';
import type { Payments } from '../payments/api.js';
import { AUDITED_IN_WRITE } from '../payments/intent-audit.js';
import {
  type AuditedIntent,
  type IntentName,
  type IntentParams,
  type IntentResult,
  intentOf,
} from '../payments/intents.js';
import type { AuditAction } from './audit-log.js';
import { type AuditedCall, auditRecordOf } from './audit-record.js';
import type { BackOfficeRecords } from './records.js';

/** The payments with their audit log. */
export type RecordedPayments = Payments & BackOfficeRecords;

/** The stable code an audited call failed with: its own code, else INTERNAL. */
export function outcomeOf(error: unknown): string {
  return error instanceof KitError ? error.code : 'INTERNAL';
}

/**
 * Payments whose money-moving intents (those `PAYMENT_INTENTS` marks `audited`) each leave one audit record: `ok`
 * or the refusal's code, by the caller `withAuditCaller` names (default the till), with the request id. A refusal
 * is recorded here once it settles (it changed nothing to write with), and so is a success of an intent outside
 * `inWrite`; the payments write the `ok` record of each intent in `inWrite` (default AUDITED_IN_WRITE, as
 * BackOfficePayments does) themselves, in the statement that stores its effect. A record this wrapper cannot
 * write is reported to `onError` and does not change the intent's answer: the money already moved, or did not.
 */
export function auditedPayments(
  inner: RecordedPayments,
  onError: (error: unknown) => void,
  inWrite: ReadonlySet<IntentName> = AUDITED_IN_WRITE,
): RecordedPayments {
  const audited = async (call: AuditedCall, run: () => Promise<PaymentView>, okInWrite: boolean) => {
    const write = (outcome: string, view?: PaymentView) =>
      inner.recordAudit(auditRecordOf(call, outcome, view)).catch(onError);
    try {
      const view = await run();
      if (!okInWrite) await write('ok', view);
      return view;
    } catch (error) {
      await write(outcomeOf(error));
      throw error;
    }
  };
  const intent = <N extends IntentName>(name: N, tillId: string, params: IntentParams<N>) => {
    const run = () => inner.intent(name, tillId, params);
    if (!intentOf(name).audited) return run();
    // An audited intent answers the payment's view; its action is its name.
    const action: AuditAction = name as AuditedIntent;
    const { paymentId } = params as { paymentId?: string };
    const refund = name === 'refund' ? (params as IntentParams<'refund'>) : undefined;
    const call: AuditedCall = { action, tillId, paymentId, refund };
    return audited(call, run as () => Promise<PaymentView>, inWrite.has(name)) as Promise<IntentResult<N>>;
  };
  // Every call forwarded to `inner` itself: its methods may use its private fields.
  return {
    init: () => inner.init(),
    intent,
    subscribe: (t, listener) => inner.subscribe(t, listener),
    webhookHandler: () => inner.webhookHandler(),
    close: () => inner.close(),
    search: (search) => inner.search(search),
    recordAudit: (record) => inner.recordAudit(record),
    readAudit: (query) => inner.readAudit(query),
    reconciliation: (query) => inner.reconciliation(query),
    dayClose: (query) => inner.dayClose(query),
  };
}
