import { writeFileSync } from 'node:fs';
import { reconcileCsv } from '../../cashdesk/reconcile/csv.js';
import { reconcile } from '../../cashdesk/reconcile/reconcile.js';
import { type ReconcileReport, remaining } from '../../cashdesk/reconcile/report.js';
import { ConfigError } from '../../errors.js';
import { parseCliArgs } from '../args.js';
import { describeCliFailure } from '../errors.js';
import { openPaymentBooks } from './pay-books.js';

export const PAY_RECONCILE_USAGE = `wallet-partner-kit pay reconcile --config FILE [--from ISO] [--to ISO] [--json] \
[--csv FILE] [--heal]

'pay reconcile' compares the payments 'serve' recorded (in the database of its configuration FILE; no server
needs to run) with the Pay service's records: /status of every transaction, read in the configured dialect.
Kinds: paid_untold, told_unpaid, amount_mismatch, refund_unknown, refund_missing, late_success (to refund),
stale_open, status_unreadable, receipt_unknown. Exits 0 when nothing is left, 1 when discrepancies remain, 2 on
error.
  --config FILE  serve's configuration (its database and pay sections; the environment applies as for serve)
  --from ISO     the period's start (default: 24 hours before --to)
  --to ISO       the period's end, exclusive (default: now)
  --json         the report as JSON
  --csv FILE     also write the discrepancies to FILE as CSV
  --heal         record what the service says where no money moves (a paid_untold payment becomes succeeded
                 and its till is told; a refund_unknown refund is recorded as the service's); never refunds
                 or cancels`;

const DAY_MS = 86_400_000;

function instant(value: string | undefined, name: string, issues: string[]): Date | undefined {
  if (value === undefined) return undefined;
  const at = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(at.getTime())) {
    issues.push(`--${name}: must be an ISO 8601 time such as 2026-11-29T00:00:00Z`);
    return undefined;
  }
  return at;
}

/** The report as lines for a terminal. */
function reportLines(report: ReconcileReport): string[] {
  const lines = [
    `${report.from} .. ${report.to}: ${report.payments} payments, ${report.transactions} transactions, ` +
      `${report.discrepancies.length} discrepancies (${remaining(report).length} left)`,
  ];
  for (const d of report.discrepancies) {
    const service = d.service.error ?? d.service.status ?? '-';
    lines.push(
      `  ${d.kind.padEnd(17)} till ${d.tillId}${d.store ? ` (store ${d.store})` : ''} payment ${d.paymentId} ` +
        `transaction ${d.transactionId ?? '-'}: kit ${d.kit.phase}/${d.kit.status ?? '-'}, service ${service}` +
        (d.healed ? ' [healed]' : ''),
    );
  }
  return lines;
}

/** Runs `pay reconcile`: exit 0 when nothing is left, 1 when discrepancies remain, 2 on error. */
export async function payReconcile(argv: string[]): Promise<void> {
  try {
    const report = await run(argv);
    if (report !== undefined && remaining(report).length > 0) process.exitCode = 1;
  } catch (error) {
    console.error(`wallet-partner-kit: ${describeCliFailure(error).line}`);
    process.exitCode = 2;
  }
}

async function run(argv: string[]): Promise<ReconcileReport | undefined> {
  const { values } = parseCliArgs({
    args: argv,
    strict: true,
    options: {
      config: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      json: { type: 'boolean' },
      csv: { type: 'string' },
      heal: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return void console.log(PAY_RECONCILE_USAGE);
  const issues: string[] = [];
  if (values.config === undefined) issues.push("--config: give serve's configuration file");
  const to = instant(values.to, 'to', issues) ?? new Date();
  const from = instant(values.from, 'from', issues) ?? new Date(to.getTime() - DAY_MS);
  if (from.getTime() >= to.getTime()) issues.push('--from: must be before --to');
  if (issues.length > 0) throw new ConfigError(issues, 'arguments');
  const books = await openPaymentBooks(values.config!, process.env);
  try {
    if (books.client === undefined)
      throw new ConfigError(['pay: the configuration has no pay section to ask'], 'configuration for pay');
    const report = await reconcile({
      db: books.db,
      channel: books.channel,
      client: books.client,
      period: { from, to },
      storeOf: books.storeOf,
      heal: values.heal ?? false,
    });
    if (values.csv !== undefined) writeFileSync(values.csv, reconcileCsv(report));
    if (values.json) console.log(JSON.stringify(report, null, 2));
    else for (const line of reportLines(report)) console.log(line);
    return report;
  } finally {
    await books.close();
  }
}
