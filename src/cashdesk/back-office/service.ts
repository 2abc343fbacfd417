import type {
  AuditQuery as AuditQueryInput,
  BackOfficePayment,
  BackOfficePaymentsQuery,
} from '../../contracts/back-office.js';
import type { DayCloseQuery, ReconciliationQuery } from '../../contracts/back-office-reports.js';
import type { PaymentView, RefundIntent } from '../../contracts/cashdesk-payments.js';
import type { DayCloseReport } from '../day-close/day-close.js';
import type { ReconcileReport } from '../reconcile/report.js';
import type { Payments } from '../payments/api.js';
import { PaymentsError } from '../payments/errors.js';
import type { BackOfficeCaller, BackOfficeRegistry, BackOfficeScope } from './credentials.js';
import { BackOfficeError } from './errors.js';
import { currentRequestId } from '../../log/request-id.js';
import { withAuditCaller } from './audit-context.js';
import type { AuditEntry } from './audit-log.js';
import { outcomeOf } from './audited-payments.js';
import type { FoundPayment } from './payment-search.js';
import type { BackOfficeRecords } from './records.js';

/** What the back office needs: its keys, the tills (with their stores) and the payments. */
export interface BackOfficeOptions {
  keys: BackOfficeRegistry;
  tills: ReadonlyArray<{ id: string; store?: string | undefined }>;
  /** The server's payments; without them the payment routes answer PAY_NOT_CONFIGURED. */
  payments?: Payments & BackOfficeRecords;
}

/**
 * The merchant's back office over the cash desk's payments: any till's payments read, refunded by a key with
 * `payments:refund` (no card, no till), each call checked against its caller's scopes. Transports authenticate
 * with {@link BackOffice.authenticate} and call the rest with the caller it answered.
 */
export class BackOffice {
  readonly #keys: BackOfficeRegistry;
  readonly #stores: ReadonlyMap<string, string | null>;
  readonly #payments: (Payments & BackOfficeRecords) | undefined;

  constructor(options: BackOfficeOptions) {
    this.#keys = options.keys;
    this.#stores = new Map(options.tills.map((t) => [t.id, t.store ?? null]));
    this.#payments = options.payments;
  }

  /** The caller a key belongs to, or undefined (a till's key is none). */
  authenticate(key: string | undefined): BackOfficeCaller | undefined {
    return this.#keys.authenticate(key);
  }

  /** The store of a configured till (null when it names none), undefined for a till not configured. */
  storeOf(tillId: string): string | null | undefined {
    return this.#stores.get(tillId);
  }

  /** The configured tills and their stores. */
  get tills(): ReadonlyMap<string, string | null> {
    return this.#stores;
  }

  /** @throws BackOfficeError (`SCOPE_MISSING`) when `caller` lacks `scope`. */
  require(caller: BackOfficeCaller, scope: BackOfficeScope): void {
    if (!caller.scopes.has(scope)) throw new BackOfficeError('SCOPE_MISSING', `this key lacks the scope ${scope}`);
  }

  /** `payments:read`: a page of every till's payments, oldest first, filtered by time, till, store and phase. */
  async payments(
    caller: BackOfficeCaller,
    query: BackOfficePaymentsQuery,
  ): Promise<{ payments: BackOfficePayment[]; next: string | null }> {
    this.require(caller, 'payments:read');
    const page = await this.#paymentsOrRefuse().search({
      ...(query.from === undefined ? {} : { from: query.from }),
      ...(query.to === undefined ? {} : { to: query.to }),
      ...this.#tillFilter(query.tillId, query.store),
      ...(query.phase === undefined ? {} : { phase: query.phase }),
      limit: query.limit,
      ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
    });
    return { payments: page.payments.map((p) => this.#row(p)), next: page.next };
  }

  /**
   * `payments:refund`: a till's refund made from the back office, with the till refund's rules and its idempotency
   * by refundId. With `maxRefundAmount`, a refund over it is refused; a refund of everything or of items is judged
   * by what is left to refund on its transaction, the most it can give back.
   */
  async refund(
    caller: BackOfficeCaller,
    tillId: string,
    paymentId: string,
    intent: RefundIntent,
    address: string | null,
  ): Promise<PaymentView> {
    const actor = { kind: caller.kind ?? ('backOffice' as const), id: caller.id };
    const payments = this.#paymentsOrRefuse();
    try {
      this.require(caller, 'payments:refund');
      if (!this.#stores.has(tillId)) throw new PaymentsError('PAYMENT_NOT_FOUND', `no till ${tillId}`);
      await this.#withinLimit(caller, payments, tillId, paymentId, intent);
    } catch (error) {
      // Refused before the payments saw it: recorded here (the payments record what they refuse themselves).
      await payments.recordAudit({
        actor,
        address,
        action: 'refund',
        tillId,
        paymentId,
        refundId: intent.refundId,
        amount: intent.amount ?? null,
        outcome: outcomeOf(error),
        requestId: currentRequestId() ?? null,
      });
      throw error;
    }
    return withAuditCaller({ actor, address }, () => payments.intent('refund', tillId, { paymentId, ...intent }));
  }

  async #withinLimit(
    caller: BackOfficeCaller,
    payments: Payments,
    tillId: string,
    paymentId: string,
    intent: RefundIntent,
  ): Promise<void> {
    if (caller.maxRefundAmount === undefined) return;
    const most = intent.amount ?? refundable(await payments.intent('get', tillId, { paymentId }), intent.transactionId);
    if (most <= caller.maxRefundAmount) return;
    throw new BackOfficeError('REFUND_LIMIT_EXCEEDED', `this key refunds at most ${caller.maxRefundAmount}`, [
      `amount: this key refunds at most ${caller.maxRefundAmount} kopecks at once` +
        (intent.amount === undefined ? ' (give amount)' : ''),
    ]);
  }

  /** `audit:read`: a page of the audit log in `seq` order. */
  async audit(
    caller: BackOfficeCaller,
    query: AuditQueryInput,
  ): Promise<{ entries: AuditEntry[]; next: string | null }> {
    this.require(caller, 'audit:read');
    const entries = await this.#paymentsOrRefuse().readAudit({
      ...(query.from === undefined ? {} : { from: query.from }),
      ...(query.to === undefined ? {} : { to: query.to }),
      ...(query.tillId === undefined ? {} : { tillId: query.tillId }),
      ...(query.paymentId === undefined ? {} : { paymentId: query.paymentId }),
      ...(query.cursor === undefined ? {} : { afterSeq: Number(query.cursor) }),
      limit: query.limit + 1,
    });
    const page = entries.slice(0, query.limit);
    return { entries: page, next: entries.length > query.limit ? String(page[page.length - 1]!.seq) : null };
  }

  /** `reports:read`: the background comparison's last report, or a comparison of the period asked. */
  reconciliation(caller: BackOfficeCaller, query: ReconciliationQuery): Promise<ReconcileReport> {
    this.require(caller, 'reports:read');
    return this.#paymentsOrRefuse().reconciliation(query);
  }

  /** `reports:read`: the day-close of a day in a time zone. */
  dayClose(caller: BackOfficeCaller, query: DayCloseQuery): Promise<DayCloseReport> {
    this.require(caller, 'reports:read');
    return this.#paymentsOrRefuse().dayClose(query);
  }

  #paymentsOrRefuse(): Payments & BackOfficeRecords {
    if (this.#payments === undefined)
      throw new PaymentsError('PAY_NOT_CONFIGURED', 'this server has no Pay API configured (pay.url)');
    return this.#payments;
  }

  /** The tills a search reads: the one named, those of the store named, or all (no filter). */
  #tillFilter(tillId: string | undefined, store: string | undefined): { tillIds?: string[] } {
    if (tillId === undefined && store === undefined) return {};
    const ids = [...this.#stores]
      .filter(([id, s]) => (tillId === undefined || id === tillId) && (store === undefined || s === store))
      .map(([id]) => id);
    return { tillIds: ids };
  }

  #row(found: FoundPayment): BackOfficePayment {
    const { view } = found;
    return {
      tillId: found.tillId,
      store: this.#stores.get(found.tillId) ?? null,
      paymentId: view.paymentId,
      phase: view.phase,
      totalAmount: view.totalAmount,
      refundedAmount: view.refundedAmount ?? 0,
      transactions: view.transactions ?? [],
      createdAt: found.createdAt,
      updatedAt: found.updatedAt,
    };
  }
}

/** What is left to refund of a payment's transaction (`transactionId`, default the current one). */
function refundable(view: PaymentView, transactionId: RefundIntent['transactionId']): number {
  const transaction = view.transactions?.find((t) =>
    transactionId === undefined ? t.current : String(t.transactionId) === String(transactionId),
  );
  if (transaction === undefined) return view.totalAmount - (view.refundedAmount ?? 0);
  return (transaction.totalAmount ?? view.totalAmount) - transaction.refundedAmount;
}
