import { dayCloseCsv, type DayCloseReport } from '../../cashdesk/day-close/day-close.js';
import { isCalendarDate, isTimeZone } from '../../cashdesk/day-close/day.js';
import { dayCloseBody } from '../../cashdesk/reconcile/back-office-reports.js';
import { ConfigError } from '../../errors.js';
import { parseCliArgs } from '../args.js';
import { openPaymentBooks } from './pay-books.js';

export const PAY_DAY_CLOSE_USAGE = `wallet-partner-kit pay day-close --config FILE --date YYYY-MM-DD [--tz ZONE] \
[--json | --csv]

'pay day-close' totals a day from the payments 'serve' recorded (no server needs to run): per till, per store
and in all, the payments begun, paid (money taken that day, late successes included), refunded (money given
back that day) and net, in kopecks; with the discrepancies 'pay reconcile' finds for the day (the Pay service
is asked when the configuration has a pay section).
  --config FILE  serve's configuration (the environment applies as for serve)
  --date D       the day, YYYY-MM-DD
  --tz ZONE      its time zone, IANA (default UTC)
  --json         the report as JSON
  --csv          a header row and a row per till`;

/** The day-close as lines for a terminal. */
function reportLines(r: DayCloseReport): string[] {
  const row = (name: string, t: { payments: number; paid: number; refunded: number; net: number }) =>
    `  ${name.padEnd(28)} ${String(t.payments).padStart(8)} ${String(t.paid).padStart(12)} ` +
    `${String(t.refunded).padStart(12)} ${String(t.net).padStart(12)}`;
  return [
    `day-close ${r.date} (${r.tz}), amounts in kopecks`,
    `  ${'till / store'.padEnd(28)} ${'payments'.padStart(8)} ${'paid'.padStart(12)} ` +
      `${'refunded'.padStart(12)} ${'net'.padStart(12)}`,
    ...r.tills.map((t) => row(`till ${t.tillId}${t.store ? ` (${t.store})` : ''}`, t)),
    ...r.stores.map((s) => row(`store ${s.store ?? '(none)'}`, s)),
    row('total', r.totals),
    `  ${r.discrepancies.length} discrepancies${r.discrepancies.length > 0 ? ': run pay reconcile for the day' : ''}`,
  ];
}

/** Runs `pay day-close`. */
export async function payDayClose(argv: string[]): Promise<void> {
  const { values } = parseCliArgs({
    args: argv,
    strict: true,
    options: {
      config: { type: 'string' },
      date: { type: 'string' },
      tz: { type: 'string' },
      json: { type: 'boolean' },
      csv: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return void console.log(PAY_DAY_CLOSE_USAGE);
  const tz = values.tz ?? 'UTC';
  const issues: string[] = [];
  if (values.config === undefined) issues.push("--config: give serve's configuration file");
  if (values.date === undefined || !isCalendarDate(values.date)) issues.push('--date: must be a day, YYYY-MM-DD');
  if (!isTimeZone(tz)) issues.push('--tz: must be an IANA time zone such as Europe/Moscow');
  if (values.json && values.csv) issues.push('--json, --csv: give one, not both');
  if (issues.length > 0) throw new ConfigError(issues, 'arguments');
  const books = await openPaymentBooks(values.config!, process.env);
  try {
    const report = await dayCloseBody(
      { date: values.date!, tz },
      { db: books.db, ...(books.client ? { client: books.client } : {}), storeOf: books.storeOf },
    );
    if (values.json) console.log(JSON.stringify(report, null, 2));
    else if (values.csv) process.stdout.write(dayCloseCsv(report));
    else for (const line of reportLines(report)) console.log(line);
  } finally {
    await books.close();
  }
}
