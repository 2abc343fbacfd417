import type { DISCREPANCY_KINDS } from '../../contracts/back-office-reports.js';
import type { StatusClass } from '../../contracts/pay/statuses.js';

/** One kind of {@link DISCREPANCY_KINDS}. */
export type DiscrepancyKind = (typeof DISCREPANCY_KINDS)[number];

/** A transaction as the kit recorded it. */
export interface KitSide {
  phase: string;
  status?: string;
  statusClass?: StatusClass;
  totalAmount?: number;
  refundedAmount: number;
  current: boolean;
}

/** A transaction as the service answered about it, or why no answer could be read. */
export interface ServiceSide {
  status?: string;
  statusClass?: StatusClass;
  totalAmount?: number;
  refundedAmount?: number;
  /** The stable code of the failure when the status could not be read. */
  error?: string;
}

/** One difference between the kit and the service. */
export interface Discrepancy {
  kind: DiscrepancyKind;
  tillId: string;
  store: string | null;
  paymentId: string;
  /** Null when the kit never learnt the transaction's id (and the service knew none either). */
  transactionId: string | null;
  kit: KitSide;
  service: ServiceSide;
  /** Whether `heal` recorded what the service says (only where no money moves). */
  healed: boolean;
}

/** The outcome of one comparison over a period. */
export interface ReconcileReport {
  /** RFC 3339: the period's start (inclusive) and end (exclusive). */
  from: string;
  to: string;
  /** How many payments and transactions were compared. */
  payments: number;
  transactions: number;
  discrepancies: Discrepancy[];
}

/** The discrepancies a report leaves to act on (those not healed). */
export function remaining(report: ReconcileReport): Discrepancy[] {
  return report.discrepancies.filter((d) => !d.healed);
}

/** A stable text naming a discrepancy: the same finding in two runs has the same key. */
export function discrepancyKey(d: Pick<Discrepancy, 'kind' | 'tillId' | 'paymentId' | 'transactionId'>): string {
  return `${d.kind}:${d.tillId}/${d.paymentId}:${d.transactionId ?? '-'}`;
}
