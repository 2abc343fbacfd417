import type { DayCloseQuery, ReconciliationQuery } from '../../contracts/back-office-reports.js';
import type { RefundIntent } from '../../contracts/cashdesk-payments.js';
import { migrate } from '../../db/index.js';
import type { DayCloseReport } from '../day-close/day-close.js';
import type { RecordOf } from '../payments/intent-audit.js';
import type { AuditedIntent } from '../payments/intents.js';
import type { CashDeskPaymentsOptions } from '../payments/options.js';
import { dayCloseBody, reconciliationBody } from '../reconcile/back-office-reports.js';
import { type BackgroundReconcileOptions, BackgroundReconciliation } from '../reconcile/background.js';
import type { ReconcileReport } from '../reconcile/report.js';
import { CashDeskPayments } from '../payments/service.js';
import { AuditLog, type AuditEntry, type AuditQuery, type AuditRecord } from './audit-log.js';
import { auditMigrations } from './audit-migrations.js';
import { auditRecordOf } from './audit-record.js';
import { searchPayments, type PaymentPage, type PaymentSearch } from './payment-search.js';
import type { BackOfficeRecords } from './records.js';

/** The reports' options: the tills' stores, and the background comparison (none when absent). */
export interface BackOfficeReportsOptions {
  storeOf?: (tillId: string) => string | null;
  background?: Omit<BackgroundReconcileOptions, 'db' | 'client' | 'storeOf'>;
  /** Audit rows older than this many days are deleted at `init()`, then daily. Default: none deleted. */
  auditRetentionDays?: number;
}

const DAY_MS = 86_400_000;

/** The `ok` record maker the payments use for an intent they audit in its write (see AUDITED_IN_WRITE). */
function recordOf(action: AuditedIntent, tillId: string, params: unknown): RecordOf {
  const { paymentId } = params as { paymentId?: string };
  const refund = action === 'refund' ? (params as RefundIntent) : undefined;
  return (view) => auditRecordOf({ action, tillId, paymentId, refund }, 'ok', view);
}

/**
 * The cash desk's payments with what the back office reads beside them, in the same database: every till's
 * payments (`search`) and the audit log (`recordAudit`, `readAudit`).
 */
export class BackOfficePayments extends CashDeskPayments implements BackOfficeRecords {
  readonly #options: CashDeskPaymentsOptions;
  readonly #audit: AuditLog;
  readonly #storeOf: (tillId: string) => string | null;
  readonly #background: BackgroundReconciliation | undefined;
  readonly #retentionDays: number | undefined;
  #pruner: NodeJS.Timeout | undefined;

  constructor(options: CashDeskPaymentsOptions & { reports?: BackOfficeReportsOptions }) {
    // The audit table is this class's: the refunds' records are written with their effect (AUDITED_IN_WRITE).
    super({ ...options, audit: { recordOf } });
    const reports = options.reports ?? {};
    this.#retentionDays = reports.auditRetentionDays;
    this.#options = options;
    this.#audit = new AuditLog(options.db);
    this.#storeOf = reports.storeOf ?? (() => null);
    this.#background =
      reports.background &&
      new BackgroundReconciliation({
        ...reports.background,
        db: options.db,
        client: options.client,
        storeOf: this.#storeOf,
      });
  }

  /** Creates the audit table (append-only), starts the payments, then the background comparison. */
  override async init(): Promise<void> {
    await migrate(this.#options.db, 'cashdesk-audit', auditMigrations);
    await super.init();
    await this.#background?.start();
    const days = this.#retentionDays;
    if (days !== undefined) {
      await this.#audit.prune(days);
      const prune = () =>
        void this.#audit.prune(days).catch((error: unknown) => this.#options.onError?.(error, 'audit retention'));
      this.#pruner = setInterval(prune, DAY_MS).unref();
    }
  }

  /** Stops the retention and the background comparison, then the payments. */
  override async close(): Promise<void> {
    clearInterval(this.#pruner);
    await this.#background?.close();
    await super.close();
  }

  /** The background comparison's last report, or a comparison of the period asked (never healing). */
  async reconciliation(query: ReconciliationQuery): Promise<ReconcileReport> {
    await this.caughtUp();
    const background = this.#background;
    return reconciliationBody(query, {
      db: this.#options.db,
      client: this.#options.client,
      storeOf: this.#storeOf,
      ...(background ? { lastReport: () => background.last() } : {}),
      ...(this.#options.clock ? { now: this.#options.clock } : {}),
    });
  }

  /** The day-close of `query.date` in `query.tz`, with the day's discrepancies. */
  async dayClose(query: DayCloseQuery): Promise<DayCloseReport> {
    await this.caughtUp();
    return dayCloseBody(query, { db: this.#options.db, client: this.#options.client, storeOf: this.#storeOf });
  }

  /** A page of every till's stored payments (with writes behind, once the rows hold what the tills were told). */
  async search(search: PaymentSearch): Promise<PaymentPage> {
    await this.caughtUp();
    return searchPayments(this.#options.db, search);
  }

  /** Appends to the audit log. */
  recordAudit(record: AuditRecord): Promise<void> {
    return this.#audit.append(record);
  }

  /** Reads the audit log in `seq` order. */
  async readAudit(query: AuditQuery): Promise<AuditEntry[]> {
    // With writes behind (PGlite in memory), a refund's record is in the write that follows its answer.
    await this.caughtUp();
    return this.#audit.read(query);
  }
}
