import type { DayCloseQuery, ReconciliationQuery } from '../../contracts/back-office-reports.js';
import type { DayCloseReport } from '../day-close/day-close.js';
import type { ReconcileReport } from '../reconcile/report.js';
import type { AuditEntry, AuditQuery, AuditRecord } from './audit-log.js';
import type { PaymentPage, PaymentSearch } from './payment-search.js';

/**
 * What the back office reads and writes beside the payments, in their database: implemented by
 * `BackOfficePayments`, and by the payments thread's proxy for it.
 */
export interface BackOfficeRecords {
  /** Every till's stored payments, a page in creation order. */
  search(search: PaymentSearch): Promise<PaymentPage>;
  /** Appends a record to the audit log. */
  recordAudit(record: AuditRecord): Promise<void>;
  /** Reads the audit log in `seq` order. */
  readAudit(query: AuditQuery): Promise<AuditEntry[]>;
  /** The background comparison's last report, or (with a period, or none made yet) a comparison of the period. */
  reconciliation(query: ReconciliationQuery): Promise<ReconcileReport>;
  /** The day-close of a day in a time zone. */
  dayClose(query: DayCloseQuery): Promise<DayCloseReport>;
}
