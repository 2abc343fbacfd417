import { parseCliArgs } from '../args.js';
import cliProgress from 'cli-progress';
import { sendCampaign, type CampaignProgressEvent } from '../../push/campaign.js';
import { createPushClient } from '../../push/client.js';
import { PushError } from '../../push/errors.js';
import { readMsisdnFile } from '../../push/sources.js';

export const PUSH_USAGE = `wallet-partner-kit push send --url URL --login L --file numbers.csv|.ndjson --sub-id X \
--title T --text T
                        [--deeplink URL] [--password P] [--progress FILE] [--results FILE] [--batch-size N] [--column C]
wallet-partner-kit push reset-password --url URL --login L [--password P] --new-password P

Sends a campaign through a Push API: the numbers are streamed from the file (CSV: the msisdn/phone/number
column or the first; NDJSON: a string, a number or {"msisdn":...} per line), normalized, validated and
de-duplicated, and sent in batches of at most 10,000, waiting out 304s. Run the same command again after
a crash or an error: the progress file makes it resume without sending any batch twice.
  --url URL          the Push service (PUSH_URL; default http://127.0.0.1:8090, the sandbox)
  --login L          account login (PUSH_LOGIN)
  --password P       account password (PUSH_PASSWORD: prefer it, a password on the command line shows in ps)
  --progress FILE    progress file (default <file>.progress.json)
  --results FILE     per-number results, NDJSON (default <file>.results.ndjson)
  --batch-size N     numbers per request, 1 to 10000 (default 10000)
  --column C         CSV column name or 0-based index, NDJSON field (default msisdn)
A progress bar (sent/total, rate, ETA) is drawn on a terminal; otherwise one line per batch.
reset-password sets a new password (an account's initial password must be reset before anything else).`;

function usageError(message: string): Error {
  return Object.assign(new Error(message), { code: 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' });
}

function required(values: Record<string, string | boolean | undefined>, name: string, env?: string): string {
  const given = values[name];
  const value = typeof given === 'string' ? given : env === undefined ? undefined : process.env[env] || undefined;
  if (value === undefined || value === '') throw usageError(`--${name} is required${env ? ` (or ${env})` : ''}`);
  return value;
}

function integer(value: string | undefined, what: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,9}$/.test(value)) throw usageError(`${what}: must be a whole number`);
  return Number(value);
}

/** Counts the numbers of a file in a first streaming pass, for the progress bar's total and ETA. */
async function countNumbers(file: string, column: string | number | undefined): Promise<number> {
  let count = 0;
  for await (const _ of readMsisdnFile(file, { column })) count++;
  return count;
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  return s >= 3600
    ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
    : s >= 60
      ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
      : `${s}s`;
}

/** Draws progress: a cli-progress bar on a terminal, plain lines otherwise (logs, CI, pipes). */
function progressView(total: number): { update(p: CampaignProgressEvent): void; stop(): void } {
  const started = Date.now();
  const rate = (done: number) => done / Math.max(0.001, (Date.now() - started) / 1000);
  if (process.stdout.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        format:
          'sent {bar} {value}/{total} | {rate}/s | ETA {eta_formatted} | accepted {accepted} rejected ' +
          '{rejected}{waiting}',
        hideCursor: true,
        etaBuffer: 50,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { rate: '0', accepted: 0, rejected: 0, waiting: '' });
    return {
      update: (p) =>
        bar.update(p.done, {
          rate: rate(p.done).toFixed(0),
          accepted: p.accepted,
          rejected: p.rejected,
          waiting: p.waiting ? ' (waiting: 304)' : '',
        }),
      stop: () => bar.stop(),
    };
  }
  return {
    update(p) {
      if (p.waiting) return;
      const r = rate(p.done);
      const eta = r > 0 ? (total - p.done) / r : Infinity;
      console.log(
        `sent ${p.done}/${total} (${total > 0 ? ((p.done / total) * 100).toFixed(1) : '100.0'}%) | ` +
          `${r.toFixed(0)}/s | ETA ${duration(eta)} | accepted ${p.accepted} rejected ${p.rejected}`,
      );
    },
    stop() {},
  };
}

/** The options of `push send`, as `parseCliArgs` reads them. */
const SEND_OPTIONS = {
  url: { type: 'string' },
  login: { type: 'string' },
  password: { type: 'string' },
  file: { type: 'string' },
  'sub-id': { type: 'string' },
  title: { type: 'string' },
  text: { type: 'string' },
  deeplink: { type: 'string' },
  progress: { type: 'string' },
  results: { type: 'string' },
  'batch-size': { type: 'string' },
  column: { type: 'string' },
  help: { type: 'boolean' },
} as const;

async function send(argv: string[]): Promise<void> {
  const { values } = parseCliArgs({ args: argv, strict: true, options: SEND_OPTIONS });
  if (values.help) {
    console.log(PUSH_USAGE);
    return;
  }
  const file = required(values, 'file');
  const column =
    values.column === undefined ? undefined : /^\d+$/.test(values.column) ? Number(values.column) : values.column;
  const client = createPushClient({
    url: values.url ?? (process.env.PUSH_URL || 'http://127.0.0.1:8090'),
    login: required(values, 'login', 'PUSH_LOGIN'),
    password: required(values, 'password', 'PUSH_PASSWORD'),
  });
  const subId = required(values, 'sub-id');
  const message = {
    title: required(values, 'title'),
    text: required(values, 'text'),
    ...(values.deeplink ? { deeplink: values.deeplink } : {}),
  };
  const total = await countNumbers(file, column);
  const progressFile = values.progress ?? `${file}.progress.json`;
  const resultsFile = values.results ?? `${file}.results.ndjson`;
  const view = progressView(total);
  const controller = new AbortController();
  const stop = () =>
    controller.abort(new PushError('PUSH_NETWORK', 'interrupted; run the same command again to resume'));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const report = await sendCampaign({
      client,
      numbers: readMsisdnFile(file, { column }),
      subId,
      message,
      total,
      progressFile,
      resultsFile,
      batchSize: integer(values['batch-size'], '--batch-size'),
      onProgress: (p) => view.update(p),
      signal: controller.signal,
    });
    view.stop();
    const resumed = report.skippedBatches > 0 ? `, ${report.skippedBatches} of them sent by an earlier run` : '';
    console.log(
      `campaign ${report.campaignId}: ${report.read} read, ${report.accepted} accepted, ${report.rejectedCount} ` +
        `rejected; ${report.batches} batches${resumed}; ${(report.durationMs / 1000).toFixed(1)} s`,
    );
    console.log(`per-number results: ${resultsFile}`);
  } catch (error) {
    if (!(error instanceof PushError && error.code === 'PROGRESS_MISMATCH')) throw error;
    // The files default to names made from the numbers file, so a second campaign from it meets the first's.
    throw new PushError(
      'PROGRESS_MISMATCH',
      `${error.message}. To resume that campaign, run it with its own --sub-id, ` +
        `--title, --text and --batch-size; to send this one as a new campaign, give it files of its own ` +
        `(--progress FILE --results FILE) or delete ${progressFile} and ${resultsFile}`,
      { path: error.path },
      { cause: error },
    );
  } finally {
    view.stop();
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

async function resetPassword(argv: string[]): Promise<void> {
  const { values } = parseCliArgs({
    args: argv,
    strict: true,
    options: {
      url: { type: 'string' },
      login: { type: 'string' },
      password: { type: 'string' },
      'new-password': { type: 'string' },
    },
  });
  const client = createPushClient({
    url: values.url ?? (process.env.PUSH_URL || 'http://127.0.0.1:8090'),
    login: required(values, 'login', 'PUSH_LOGIN'),
    password: required(values, 'password', 'PUSH_PASSWORD'),
  });
  await client.resetPassword(required(values, 'new-password'));
  console.log('password reset: use the new one from now on');
}

/** Runs `push send` or `push reset-password`. A refused or failed call prints its code and exits 1. */
export async function push(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  try {
    switch (sub) {
      case 'send':
        await send(rest);
        break;
      case 'reset-password':
        await resetPassword(rest);
        break;
      case undefined:
      case 'help':
      case '--help':
        console.log(PUSH_USAGE);
        break;
      default:
        throw usageError(`unknown push command '${sub}' (send, reset-password)`);
    }
  } catch (error) {
    if (!(error instanceof PushError)) throw error;
    console.error(`wallet-partner-kit push: ${error.code}: ${error.message}`);
    process.exitCode = 1;
  }
}
