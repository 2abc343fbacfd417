import type { PayCheckExchange } from './record.js';
import type { PayCheckReport, PayCheckResult, PayCheckVerdict } from './types.js';
import type { PayProfile } from '../options.js';

const INDENT = ' '.repeat(9);
const VERDICTS: readonly PayCheckVerdict[] = ['PASS', 'DIFFERS', 'FAIL', 'SKIPPED'];

/** The first line of a report: what was probed, how. */
export function formatPayCheckHeading(
  report: Pick<PayCheckReport, 'baseUrl' | 'profile' | 'tokenHeader' | 'tokenScheme' | 'cardSession'>,
): string {
  return (
    `pay check ${report.baseUrl} (profile ${report.profile}, token ${report.tokenScheme} in ${report.tokenHeader}, ` +
    `card session ${report.cardSession})`
  );
}

function exchangeLines(exchange: PayCheckExchange): string[] {
  const { request, response, error } = exchange;
  const token = Object.entries(request.headers)
    .filter(([, v]) => v === '<masked>')
    .map(([k, v]) => `  ${k}: ${v}`)
    .join('');
  const lines = [`${INDENT}> ${request.method} ${request.url}${token}  ${request.body}`];
  lines.push(
    response ? `${INDENT}< ${response.status}  ${response.body}` : `${INDENT}< no answer: ${error ?? 'unknown'}`,
  );
  return lines;
}

/** How much {@link formatPayCheckResult} shows. */
export interface PayCheckFormat {
  /** The exchanges of every operation (default: of those not PASS) and the kit's missing fields under any profile. */
  verbose?: boolean;
  /**
   * The profile probed: under `document` the kit's missing fields are expected, so listed only when verbose. Default
   * `kit`.
   */
  profile?: PayProfile;
}

/** One operation's lines: the verdict line, then what the verdict rests on. */
export function formatPayCheckResult(result: PayCheckResult, format: PayCheckFormat = {}): string[] {
  const verbose = format.verbose ?? false;
  const call = `POST ${result.path}`;
  const status = result.httpStatus === undefined ? '' : String(result.httpStatus);
  const took = result.durationMs === undefined ? '' : `${result.durationMs} ms`;
  const code = result.failure ? `  ${result.failure.code}` : '';
  const head = `${result.verdict.padEnd(8)} ${result.operation.padEnd(17)} ${call.padEnd(30)} ${status.padStart(3)}`;
  const lines = [`${head} ${took.padStart(7)}${code}`.trimEnd()];
  const add = (label: string, text: string) => lines.push(`${INDENT}${label.padEnd(8)} ${text}`);
  for (const f of result.unknown) add('unknown', `${f.field} = ${f.value}`);
  for (const f of result.invalid) add('invalid', `${f.field} = ${f.value}${f.message ? `  (${f.message})` : ''}`);
  if (result.missing.length > 0 && (verbose || format.profile !== 'document'))
    add('missing', `${result.missing.join(', ')}  (the kit's own)`);
  if (result.failure) {
    // A line already shown as an invalid field with its value is not repeated.
    const errors = result.failure.errors.filter((line) => !result.invalid.some((f) => line.startsWith(`${f.field}: `)));
    if (errors.length > 0) add('errors', errors.join('; '));
    else if (result.failure.errors.length === 0) add('error', result.failure.message);
  }
  for (const note of result.notes) add('note', note);
  // A FAIL's body is in its exchange, shown here.
  if (verbose || result.verdict !== 'PASS')
    for (const exchange of result.exchanges) lines.push(...exchangeLines(exchange));
  return lines;
}

/** The closing lines: the count per verdict, then the advice. */
export function formatPayCheckSummary(report: PayCheckReport): string[] {
  const counts = VERDICTS.map((v) => `${report.results.filter((r) => r.verdict === v).length} ${v}`).join(', ');
  const { statuses, codes, fields } = report.unmapped;
  const unmapped = [
    ...(statuses.length > 0
      ? [`not in the dialect: status ${statuses.join(', ')} (add to pay.dialect.statuses with its class)`]
      : []),
    ...(codes.length > 0
      ? [
          `not in the dialect: error code ${codes.join(', ')} (add to pay.dialect.errorCodes if the session ` +
            `should act on it)`,
        ]
      : []),
    ...(fields.length > 0
      ? [`fields not found: ${fields.join(', ')} (name the service's in pay.dialect.fields, --dialect)`]
      : []),
  ];
  return [
    `pay check: ${counts}${report.transactionId ? ` (transaction ${report.transactionId})` : ''}`,
    ...unmapped,
    ...report.advice.map((a) => `advice: ${a}`),
  ];
}

/** The whole report as lines of text. */
export function formatPayCheckReport(report: PayCheckReport, options: { verbose?: boolean } = {}): string[] {
  return [
    formatPayCheckHeading(report),
    ...report.results.flatMap((r) =>
      formatPayCheckResult(r, { verbose: options.verbose ?? false, profile: report.profile }),
    ),
    ...formatPayCheckSummary(report),
  ];
}
