import type { ConformanceReport } from './types.js';

/**
 * One line per subject: `PASS <subject>` (with notes in brackets) or
 * `FAIL <subject>: <reason>`.
 */
export function formatConformanceReport(report: ConformanceReport): string[] {
  return report.results.map((r) =>
    r.ok
      ? `PASS ${r.subject}${r.notes.length > 0 ? ` (${r.notes.join('; ')})` : ''}`
      : `FAIL ${r.subject}: ${r.reason}`,
  );
}
