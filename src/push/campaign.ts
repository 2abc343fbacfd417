import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { validationErrors } from '../contracts/validation-errors.js';
import { MAX_BATCH, PushMessage, SubId } from '../contracts/push/bodies.js';
import { ConfigError } from '../errors.js';
import { CampaignRun, sha256, type CampaignSettings } from './campaign-run.js';
import type { BatchResult, CampaignOptions, CampaignReport } from './campaign-types.js';
import { PushError } from './errors.js';
import { readProgress, writeProgress, type CampaignProgress } from './progress.js';
import { openResultsFile } from './results-file.js';
import { isValidMsisdn, iterateSource, normalizeMsisdn, type MsisdnSource } from './sources.js';
import { realSleep } from '../time/sleep.js';

export type {
  BatchResult,
  CampaignOptions,
  CampaignProgressEvent,
  CampaignReport,
  RejectionReason,
} from './campaign-types.js';

const optionsSchema = z
  .object({
    subId: SubId,
    message: PushMessage,
    batchSize: z.number().int().min(1).max(MAX_BATCH).optional(),
    progressFile: z.string().min(1).optional(),
    resultsFile: z.string().min(1).optional(),
    campaignId: z
      .string()
      .regex(/^[\x21-\x39\x3b-\x7e]{1,100}$/, { error: 'must be 1 to 100 printable characters without ":"' })
      .optional(),
    total: z.number().int().min(0).optional(),
    networkRounds: z.number().int().min(0).max(100).default(5),
    maxWaitMs: z.number().int().min(1).default(600_000),
  })
  .loose();

type CheckedOptions = z.infer<typeof optionsSchema>;

/**
 * Sends a campaign: normalizes, validates and de-duplicates the numbers as they
 * stream in, sends them in batches of at most 10 000 one after the other, waits
 * out 304s (`Retry-After`), retries batches that got no answer with the same
 * `Idempotency-Key`, and with `progressFile` resumes after a crash without
 * sending any batch twice: each batch is recorded (with its key
 * `<campaignId>:<index>`) before it is sent and its answer after (in the same
 * write as the next batch's record), and a batch
 * recorded but not answered is re-sent with the same key, which the service
 * answers from its record instead of sending again.
 *
 * @throws ConfigError for bad options; PushError for a refusal (`UNAUTHORIZED`, `BAD_REQUEST`...),
 *   a batch still without answer after every retry (`PUSH_NETWORK`, `PUSH_TIMEOUT`, `PUSH_SERVER`: run it again
 *   with the same progress file), or a progress file from another campaign (`PROGRESS_MISMATCH`).
 * @example
 * const report = await sendCampaign({
 *   client, numbers: readMsisdnFile('numbers.csv'), subId: 'promo-11',
 *   message: { title: 'Sale', text: '-20% today' }, progressFile: 'promo-11.progress.json',
 * });
 */
export async function sendCampaign(options: CampaignOptions): Promise<CampaignReport> {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) throw new ConfigError(validationErrors(parsed.error), 'campaign options');
  const checked = parsed.data;
  const { subId, message, progressFile, resultsFile, networkRounds, maxWaitMs } = checked;
  const clock = options.clock ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const started = clock();
  const contentHash = sha256(JSON.stringify({ subId, message }));
  const total = checked.total ?? (Array.isArray(options.numbers) ? options.numbers.length : undefined);
  const state = await openProgress(checked, contentHash, clock);
  const results = resultsFile === undefined ? undefined : await openResultsFile(resultsFile, state.resultsBytes);
  const settings: CampaignSettings = { subId, message, progressFile, networkRounds, maxWaitMs, total, clock, sleep };
  const run = new CampaignRun(state, settings, options, results);
  try {
    await sendNumbers(run, options.numbers);
    state.finished = true;
    await run.save();
  } finally {
    await results?.close();
  }
  run.report.durationMs = clock() - started;
  return run.report;
}

/**
 * The progress of an earlier run of this campaign (refused when made for another one), else a new one, written
 * at once (its folder synced) when there is a progress file: the file must survive a crash.
 */
async function openProgress(
  checked: CheckedOptions,
  contentHash: string,
  clock: () => number,
): Promise<CampaignProgress> {
  const { progressFile, subId } = checked;
  const progress = progressFile === undefined ? undefined : await readProgress(progressFile);
  if (progress !== undefined) {
    const wrong =
      progress.contentHash !== contentHash
        ? 'subId or message'
        : checked.campaignId !== undefined && checked.campaignId !== progress.campaignId
          ? 'campaignId'
          : checked.batchSize !== undefined && checked.batchSize !== progress.batchSize
            ? 'batchSize'
            : undefined;
    if (wrong) {
      throw new PushError(
        'PROGRESS_MISMATCH',
        `${progressFile}: made for another campaign (${wrong} differs); use another progress file`,
      );
    }
    return progress;
  }
  const now = new Date(clock()).toISOString();
  const created: CampaignProgress = {
    version: 1,
    campaignId: checked.campaignId ?? randomUUID(),
    subId,
    contentHash,
    batchSize: checked.batchSize ?? MAX_BATCH,
    createdAt: now,
    updatedAt: now,
    resultsBytes: 0,
    finished: false,
    batches: [],
  };
  if (progressFile !== undefined) await writeProgress(progressFile, created);
  return created;
}

/**
 * Reads the source, screens each number (normalized, valid, not seen before) and sends full batches, the last
 * one at the end. One batch is in flight while the next is read and screened: the source is read ahead by at
 * most one batch, and batches still go out one after the other, in order.
 */
async function sendNumbers(run: CampaignRun, numbers: MsisdnSource): Promise<void> {
  let inFlight: Promise<void> | undefined;
  const settle = async () => {
    const pending = inFlight;
    inFlight = undefined;
    await pending;
  };
  try {
    const seen = new Set<string>();
    let index = 0;
    let batch: string[] = [];
    let local: BatchResult['rejected'] = [];
    let read = 0;
    for await (const raw of iterateSource(numbers)) {
      run.report.read++;
      read++;
      const screened = screen(raw, seen);
      if (typeof screened !== 'string') {
        local.push(screened);
        continue;
      }
      // A full batch goes once the next valid number shows up, so rejections read after it travel with it.
      if (batch.length === run.state.batchSize) {
        await settle();
        inFlight = run.flush(index++, batch, local, read - 1);
        inFlight.catch(() => {}); // awaited (and thrown) by the next settle()
        batch = [];
        local = [];
        read = 1;
      }
      seen.add(screened);
      batch.push(screened);
    }
    await settle();
    if (batch.length > 0 || local.length > 0) await run.flush(index, batch, local, read);
  } finally {
    await inFlight?.catch(() => {}); // the source failed mid-way: let the batch in flight be recorded
  }
}

/** The number to send (normalized), or why it is not sent. */
function screen(raw: unknown, seen: ReadonlySet<string>): string | BatchResult['rejected'][number] {
  const msisdn = typeof raw === 'string' ? normalizeMsisdn(raw) : '';
  if (!isValidMsisdn(msisdn)) return { msisdn: String(raw).slice(0, 64), reason: 'INVALID_MSISDN' };
  if (seen.has(msisdn)) return { msisdn, reason: 'DUPLICATE' };
  return msisdn;
}
