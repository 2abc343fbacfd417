import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { validationErrors } from '../contracts/errors.js';
import { MAX_BATCH, PushMessage, SubId, type BatchPushResponse } from '../contracts/push/bodies.js';
import { ConfigError } from '../errors.js';
import type { PushClient } from './client.js';
import { PushError } from './errors.js';
import { readProgress, writeProgress, type BatchProgress, type CampaignProgress } from './progress.js';
import { openResultsFile, type NumberResult, type ResultsFile } from './results-file.js';
import { isValidMsisdn, iterateSource, normalizeMsisdn, type MsisdnSource } from './sources.js';
import { backoffMs, realSleep, type Sleep } from './wait.js';

/** Options of {@link sendCampaign}. */
export interface CampaignOptions {
  client: PushClient;
  /** Any number of numbers: an array, an iterable, an async iterable such as `readMsisdnFile(path)`. */
  numbers: MsisdnSource;
  subId: string;
  message: PushMessage;
  /** Numbers per request, 1 to 10 000. Default 10 000 (fixed by the progress file once written). */
  batchSize?: number;
  /**
   * A file recording each batch before it is sent and its answer after: run the same
   * campaign again with it after a crash and every number is still sent exactly once.
   * Default none (no resume).
   */
  progressFile?: string;
  /**
   * An NDJSON file receiving one line per number ({@link NumberResult}). With `progressFile` a resume
   * keeps the lines of finished batches; without it the file starts afresh. Default none.
   */
  resultsFile?: string;
  /** Names the campaign in the batches' idempotency keys. Default: the progress file's, else a new UUID. */
  campaignId?: string;
  /** How many numbers the source holds, if known (arrays: their length), for progress reports. */
  total?: number;
  /** Extra rounds after the client's own retries when a batch gets no answer. Default 5. */
  networkRounds?: number;
  /** Longest single wait for a 304, in ms (a longer Retry-After is capped, then asked again). Default 600 000. */
  maxWaitMs?: number;
  /** Called after each batch with its per-number results. */
  onBatch?: (batch: BatchResult) => void;
  /** Called after each batch (and each 304 wait) with the running counts. */
  onProgress?: (progress: CampaignProgressEvent) => void;
  signal?: AbortSignal;
  clock?: () => number;
  sleep?: Sleep;
}

/** Why a number was not sent. `INVALID_MSISDN` and `DUPLICATE` are found before sending too. */
export type RejectionReason = 'INVALID_MSISDN' | 'DUPLICATE' | 'UNKNOWN_SUBSCRIBER';

/** One batch's outcome. */
export interface BatchResult {
  index: number;
  idempotencyKey: string;
  /** The service's batch id; undefined for a batch with no valid number (not sent). */
  batchId: string | undefined;
  /** True when an earlier run had completed it: nothing was sent now, and `messages` is empty (its lines are in the results file). */
  skipped: boolean;
  messages: Array<{ msisdn: string; messageId: string }>;
  rejected: Array<{ msisdn: string; reason: RejectionReason | string }>;
}

/** Running counts of a campaign. */
export interface CampaignProgressEvent {
  /** Numbers read and settled (accepted, rejected, or done in an earlier run). */
  done: number;
  /** The `total` option (or the array's length); undefined when unknown. */
  total: number | undefined;
  accepted: number;
  rejected: number;
  batches: number;
  /** True while waiting out a 304. */
  waiting: boolean;
}

/** What a campaign did. Counts include batches completed by earlier runs. */
export interface CampaignReport {
  campaignId: string;
  /** Numbers read from the source. */
  read: number;
  accepted: number;
  /** Numbers not sent, found here (invalid, duplicate) or refused by the service. */
  rejectedCount: number;
  /** The first 10 000 rejections of this run (all of them are in the results file). */
  rejected: Array<{ msisdn: string; reason: RejectionReason | string }>;
  batches: number;
  /** Batches an earlier run had completed. */
  skippedBatches: number;
  /** Time spent waiting out 304s, in ms. */
  waitedMs: number;
  durationMs: number;
}

const optionsSchema = z.object({
  subId: SubId,
  message: PushMessage,
  batchSize: z.number().int().min(1).max(MAX_BATCH).optional(),
  progressFile: z.string().min(1).optional(),
  resultsFile: z.string().min(1).optional(),
  campaignId: z.string().regex(/^[\x21-\x39\x3b-\x7e]{1,100}$/, { error: 'must be 1 to 100 printable characters without ":"' }).optional(),
  total: z.number().int().min(0).optional(),
  networkRounds: z.number().int().min(0).max(100).default(5),
  maxWaitMs: z.number().int().min(1).default(600_000),
}).loose();

const REPORTED_REJECTIONS = 10_000;
const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

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
 *   a batch still without answer after every retry (`NETWORK`, `TIMEOUT`, `SERVER`: run it again
 *   with the same progress file), or a progress file from another campaign (`PROGRESS_MISMATCH`).
 * @example
 * const report = await sendCampaign({
 *   client, numbers: readMsisdnFile('numbers.csv'), subId: 'promo-11', message: { title: 'Sale', text: '-20% today' },
 *   progressFile: 'promo-11.progress.json',
 * });
 */
export async function sendCampaign(options: CampaignOptions): Promise<CampaignReport> {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) throw new ConfigError(validationErrors(parsed.error), 'campaign options');
  const { subId, message, progressFile, resultsFile, networkRounds, maxWaitMs } = parsed.data;
  const { client, signal } = options;
  const clock = options.clock ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const started = clock();
  const contentHash = sha256(JSON.stringify({ subId, message }));
  const total = parsed.data.total ?? (Array.isArray(options.numbers) ? options.numbers.length : undefined);

  let progress = progressFile === undefined ? undefined : await readProgress(progressFile);
  if (progress !== undefined) {
    const wrong = progress.contentHash !== contentHash ? 'subId or message'
      : parsed.data.campaignId !== undefined && parsed.data.campaignId !== progress.campaignId ? 'campaignId'
        : parsed.data.batchSize !== undefined && parsed.data.batchSize !== progress.batchSize ? 'batchSize' : undefined;
    if (wrong) throw new PushError('PROGRESS_MISMATCH', `${progressFile}: made for another campaign (${wrong} differs); use another progress file`);
  } else {
    const now = new Date(clock()).toISOString();
    progress = {
      version: 1, campaignId: parsed.data.campaignId ?? randomUUID(), subId, contentHash, batchSize: parsed.data.batchSize ?? MAX_BATCH,
      createdAt: now, updatedAt: now, resultsBytes: 0, finished: false, batches: [],
    };
    if (progressFile !== undefined) await writeProgress(progressFile, progress); // folder synced: the file must survive
  }
  const state: CampaignProgress = progress;
  const save = async () => {
    if (progressFile === undefined) return;
    state.updatedAt = new Date(clock()).toISOString();
    await writeProgress(progressFile, state, { syncFolder: false });
  };

  const results: ResultsFile | undefined = resultsFile === undefined ? undefined : await openResultsFile(resultsFile, state.resultsBytes);
  const report: CampaignReport = {
    campaignId: state.campaignId, read: 0, accepted: 0, rejectedCount: 0, rejected: [], batches: 0, skippedBatches: 0, waitedMs: 0, durationMs: 0,
  };
  const emit = (waiting = false) => options.onProgress?.({
    done: settled, total, accepted: report.accepted, rejected: report.rejectedCount, batches: report.batches, waiting,
  });
  let settled = 0;

  const reject = (list: BatchResult['rejected']) => {
    report.rejectedCount += list.length;
    for (const r of list) if (report.rejected.length < REPORTED_REJECTIONS) report.rejected.push(r);
  };

  async function post(index: number, key: string, numbers: string[]): Promise<BatchPushResponse> {
    for (let round = 1; ; round++) {
      signal?.throwIfAborted();
      try {
        return await client.batch({ msisdn: numbers, subId, message }, { idempotencyKey: key, signal });
      } catch (error) {
        if (!(error instanceof PushError)) throw error;
        if (error.code === 'TOO_EARLY') {
          const wait = Math.min(maxWaitMs, Math.max(0, (error.retryAt ?? clock()) - clock()));
          emit(true);
          await sleep(wait, signal);
          report.waitedMs += wait;
          round--; // a 304 is not a failure
          continue;
        }
        const transient = error.code === 'NETWORK' || error.code === 'TIMEOUT' || error.code === 'SERVER';
        if (!transient || round > networkRounds) {
          throw new PushError(error.code, `batch ${index}: ${error.message}`, {
            httpStatus: error.httpStatus, errors: error.errors, requestId: error.requestId, path: error.path, attempts: error.attempts,
          }, { cause: error });
        }
        await sleep(backoffMs(round, 1_000, 30_000), signal);
      }
    }
  }

  async function flush(index: number, numbers: string[], local: BatchResult['rejected'], read: number): Promise<void> {
    const key = `${state.campaignId}:${index}`;
    const hash = sha256(numbers.join('\n'));
    let record: BatchProgress | undefined = state.batches[index];
    if (record !== undefined && (record.hash !== hash || record.count !== numbers.length)) {
      throw new PushError('PROGRESS_MISMATCH', `${progressFile}: batch ${index} holds other numbers than when it was recorded; the source changed`);
    }
    if (record?.status === 'done') {
      report.batches++;
      report.skippedBatches++;
      report.accepted += record.accepted ?? 0;
      report.rejectedCount += (record.rejected ?? 0);
      settled += read;
      options.onBatch?.({ index, idempotencyKey: key, batchId: record.batchId, skipped: true, messages: [], rejected: [] });
      emit();
      return;
    }
    if (record === undefined) {
      record = { index, key, count: numbers.length, hash, status: 'sending' };
      state.batches[index] = record;
      // Recorded before sending: a crash from here on leaves a batch a resume re-sends with this same key.
      if (numbers.length > 0) await save();
    }
    const answer = numbers.length > 0 ? await post(index, key, numbers) : undefined;
    const messages = answer?.messages ?? [];
    const rejected = [...local, ...(answer?.rejected ?? [])];
    const lines: NumberResult[] = [
      ...messages.map((m) => ({ msisdn: m.msisdn, batch: index, status: 'ACCEPTED' as const, messageId: m.messageId })),
      ...rejected.map((r) => ({ msisdn: r.msisdn, batch: index, status: 'REJECTED' as const, reason: r.reason })),
    ];
    if (results !== undefined) state.resultsBytes = await results.append(lines);
    // Made durable by the next write (the next batch's "sending" record, or the final one): one
    // fsync'd rename per batch instead of two. A crash before it leaves this batch "sending", and
    // the resume re-sends it with its key, gets the stored answer and rewrites its lines.
    Object.assign(record, { status: 'done', batchId: answer?.batchId, accepted: answer?.accepted ?? 0, rejected: rejected.length });
    report.batches++;
    report.accepted += answer?.accepted ?? 0;
    reject(rejected);
    settled += read;
    options.onBatch?.({ index, idempotencyKey: key, batchId: answer?.batchId, skipped: false, messages, rejected });
    emit();
  }

  // One batch in flight while the next is read and screened: the source is read ahead
  // by at most one batch, and batches still go out one after the other, in order.
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
    for await (const raw of iterateSource(options.numbers)) {
      report.read++;
      read++;
      const msisdn = typeof raw === 'string' ? normalizeMsisdn(raw) : '';
      if (!isValidMsisdn(msisdn)) {
        local.push({ msisdn: String(raw).slice(0, 64), reason: 'INVALID_MSISDN' });
      } else if (seen.has(msisdn)) {
        local.push({ msisdn, reason: 'DUPLICATE' });
      } else {
        // A full batch goes once the next valid number shows up, so rejections read after it travel with it.
        if (batch.length === state.batchSize) {
          await settle();
          inFlight = flush(index++, batch, local, read - 1);
          inFlight.catch(() => {}); // awaited (and thrown) by the next settle()
          batch = [];
          local = [];
          read = 1;
        }
        seen.add(msisdn);
        batch.push(msisdn);
      }
    }
    await settle();
    if (batch.length > 0 || local.length > 0) await flush(index, batch, local, read);
    state.finished = true;
    await save();
  } finally {
    await inFlight?.catch(() => {}); // the source failed mid-way: let the batch in flight be recorded
    await results?.close();
  }
  report.durationMs = clock() - started;
  return report;
}
