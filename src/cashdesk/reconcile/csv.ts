import type { ReconcileReport } from './report.js';

/** A CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break. */
export function csvCell(value: string | number | boolean | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const COLUMNS = [
  'kind',
  'tillId',
  'store',
  'paymentId',
  'transactionId',
  'kitPhase',
  'kitStatus',
  'kitTotalAmount',
  'kitRefundedAmount',
  'serviceStatus',
  'serviceTotalAmount',
  'serviceRefundedAmount',
  'serviceError',
  'healed',
];

/** The discrepancies of a report as CSV: a header row, then one row each. */
export function reconcileCsv(report: ReconcileReport): string {
  const lines = [COLUMNS.join(',')];
  for (const d of report.discrepancies) {
    const row = [
      d.kind,
      d.tillId,
      d.store,
      d.paymentId,
      d.transactionId,
      d.kit.phase,
      d.kit.status,
      d.kit.totalAmount,
      d.kit.refundedAmount,
      d.service.status,
      d.service.totalAmount,
      d.service.refundedAmount,
      d.service.error,
      d.healed,
    ];
    lines.push(row.map(csvCell).join(','));
  }
  return `${lines.join('\n')}\n`;
}
