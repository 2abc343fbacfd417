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
}
