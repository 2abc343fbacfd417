import { migrate } from '../../db/index.js';
import type { CashDeskPaymentsOptions } from '../payments/options.js';
import { CashDeskPayments } from '../payments/service.js';
import { AuditLog, type AuditEntry, type AuditQuery, type AuditRecord } from './audit-log.js';
import { auditMigrations } from './audit-migrations.js';
import { searchPayments, type PaymentPage, type PaymentSearch } from './payment-search.js';
import type { BackOfficeRecords } from './records.js';

/**
 * The cash desk's payments with what the back office reads beside them, in the same database: every till's
 * payments (`search`) and the audit log (`recordAudit`, `readAudit`).
 */
export class BackOfficePayments extends CashDeskPayments implements BackOfficeRecords {
  readonly #options: CashDeskPaymentsOptions;
  readonly #audit: AuditLog;

  constructor(options: CashDeskPaymentsOptions) {
    super(options);
    this.#options = options;
    this.#audit = new AuditLog(options.db);
  }

  /** Creates the audit table (append-only), then starts the payments. */
  override async init(): Promise<void> {
    await migrate(this.#options.db, 'cashdesk-audit', auditMigrations);
    await super.init();
  }

  /**
   * A page of every till's stored payments. With writes behind (PGlite in memory), a row may lag what its till
   * was told by a moment: each payment is then answered as it stands here.
   */
  async search(search: PaymentSearch): Promise<PaymentPage> {
    const page = await searchPayments(this.#options.db, search);
    if (this.#options.writeBehind !== true) return page;
    const payments = await Promise.all(
      page.payments.map(async (found) => ({
        ...found,
        view: await this.get(found.tillId, { paymentId: found.view.paymentId }),
      })),
    );
    return { ...page, payments };
  }

  /** Appends to the audit log. */
  recordAudit(record: AuditRecord): Promise<void> {
    return this.#audit.append(record);
  }

  /** Reads the audit log in `seq` order. */
  readAudit(query: AuditQuery): Promise<AuditEntry[]> {
    return this.#audit.read(query);
  }
}
