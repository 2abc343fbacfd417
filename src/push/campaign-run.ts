import { createHash } from 'node:crypto';
import type { BatchPushResponse, PushMessage } from '../contracts/push/bodies.js';
import type { BatchResult, CampaignOptions, CampaignReport } from './campaign-types.js';
import { PushError } from './errors.js';
import { writeProgress, type BatchProgress, type CampaignProgress } from './progress.js';
import type { NumberResult, ResultsFile } from './results-file.js';
import { backoffDelay } from '../net/backoff.js';
import type { Sleep } from '../time/sleep.js';

/** The campaign's options once checked and defaulted. */
export interface CampaignSettings {
  subId: string;
  message: PushMessage;
  progressFile: string | undefined;
  networkRounds: number;
  maxWaitMs: number;
  /** How many numbers the source holds, when known. */
  total: number | undefined;
  clock: () => number;
  sleep: Sleep;
}

const REPORTED_REJECTIONS = 10_000;

export const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/**
 * One run of a campaign: its progress file, results file and report, and how one batch is sent and recorded.
 * Batches go through {@link flush} one after the other, in order.
 */
export class CampaignRun {
  readonly state: CampaignProgress;
  readonly report: CampaignReport;
  readonly #settings: CampaignSettings;
  readonly #options: CampaignOptions;
  readonly #results: ResultsFile | undefined;
  /** Numbers read and settled, for progress events. */
  #settled = 0;

  constructor(
    state: CampaignProgress,
    settings: CampaignSettings,
    options: CampaignOptions,
    results: ResultsFile | undefined,
  ) {
    this.state = state;
    this.#settings = settings;
    this.#options = options;
    this.#results = results;
    this.report = {
      campaignId: state.campaignId,
      read: 0,
      accepted: 0,
      rejectedCount: 0,
      rejected: [],
      batches: 0,
      skippedBatches: 0,
      waitedMs: 0,
      durationMs: 0,
    };
  }

  /** Writes the progress file (when there is one) without syncing its folder: the first write did. */
  async save(): Promise<void> {
    const { progressFile, clock } = this.#settings;
    if (progressFile === undefined) return;
    this.state.updatedAt = new Date(clock()).toISOString();
    await writeProgress(progressFile, this.state, { syncFolder: false });
  }

  /**
   * Sends the batch made of `numbers` (with the rejections `local` found while reading it, and `read` numbers
   * read for it), or counts it when an earlier run finished it; records its answer.
   */
  async flush(index: number, numbers: string[], local: BatchResult['rejected'], read: number): Promise<void> {
    const key = `${this.state.campaignId}:${index}`;
    const hash = sha256(numbers.join('\n'));
    let record: BatchProgress | undefined = this.state.batches[index];
    if (record !== undefined && (record.hash !== hash || record.count !== numbers.length)) {
      const file = this.#settings.progressFile;
      throw new PushError(
        'PROGRESS_MISMATCH',
        `${file}: batch ${index} holds other numbers than when it was recorded; the source changed`,
      );
    }
    if (record?.status === 'done') return this.#skip(index, record, key, read);
    if (record === undefined) {
      record = { index, key, count: numbers.length, hash, status: 'sending' };
      this.state.batches[index] = record;
      // Recorded before sending: a crash from here on leaves a batch a resume re-sends with this same key.
      if (numbers.length > 0) await this.save();
    }
    const answer = numbers.length > 0 ? await this.#post(index, key, numbers) : undefined;
    const messages = answer?.messages ?? [];
    const rejected = [...local, ...(answer?.rejected ?? [])];
    const lines: NumberResult[] = [
      ...messages.map((m) => ({ msisdn: m.msisdn, batch: index, status: 'ACCEPTED' as const, messageId: m.messageId })),
      ...rejected.map((r) => ({ msisdn: r.msisdn, batch: index, status: 'REJECTED' as const, reason: r.reason })),
    ];
    if (this.#results !== undefined) this.state.resultsBytes = await this.#results.append(lines);
    // Made durable by the next write (the next batch's "sending" record, or the final one): one
    // fsync'd rename per batch instead of two. A crash before it leaves this batch "sending", and
    // the resume re-sends it with its key, gets the stored answer and rewrites its lines.
    const accepted = answer?.accepted ?? 0;
    const batchId = answer?.batchId;
    Object.assign(record, { status: 'done', batchId, accepted, rejected: rejected.length });
    this.report.batches++;
    this.report.accepted += accepted;
    this.#reject(rejected);
    this.#settled += read;
    this.#options.onBatch?.({ index, idempotencyKey: key, batchId, skipped: false, messages, rejected });
    this.#emit();
  }

  /** A batch an earlier run finished: counted from its record, nothing sent. */
  #skip(index: number, record: BatchProgress, key: string, read: number): void {
    this.report.batches++;
    this.report.skippedBatches++;
    this.report.accepted += record.accepted ?? 0;
    this.report.rejectedCount += record.rejected ?? 0;
    this.#settled += read;
    const { batchId } = record;
    this.#options.onBatch?.({ index, idempotencyKey: key, batchId, skipped: true, messages: [], rejected: [] });
    this.#emit();
  }

  /**
   * The batch's answer: 304s waited out (they are not failures), a batch without answer sent again with its key
   * up to `networkRounds` more times; a refusal throws, naming the batch.
   */
  async #post(index: number, key: string, numbers: string[]): Promise<BatchPushResponse> {
    const { subId, message, networkRounds, maxWaitMs, clock, sleep } = this.#settings;
    const { client, signal } = this.#options;
    for (let round = 1; ; round++) {
      signal?.throwIfAborted();
      try {
        return await client.batch({ msisdn: numbers, subId, message }, { idempotencyKey: key, signal });
      } catch (error) {
        if (!(error instanceof PushError)) throw error;
        if (error.code === 'TOO_EARLY') {
          const wait = Math.min(maxWaitMs, Math.max(0, (error.retryAt ?? clock()) - clock()));
          this.#emit(true);
          await sleep(wait, signal);
          this.report.waitedMs += wait;
          round--; // a 304 is not a failure
          continue;
        }
        const transient =
          error.code === 'PUSH_NETWORK' || error.code === 'PUSH_TIMEOUT' || error.code === 'PUSH_SERVER';
        if (!transient || round > networkRounds) {
          throw new PushError(
            error.code,
            `batch ${index}: ${error.message}`,
            {
              httpStatus: error.httpStatus,
              errors: error.errors,
              requestId: error.requestId,
              path: error.path,
              attempts: error.attempts,
            },
            { cause: error },
          );
        }
        await sleep(backoffDelay(round, { max: networkRounds, baseMs: 1_000, maxMs: 30_000 }, Math.random), signal);
      }
    }
  }

  #reject(list: BatchResult['rejected']): void {
    this.report.rejectedCount += list.length;
    for (const r of list) if (this.report.rejected.length < REPORTED_REJECTIONS) this.report.rejected.push(r);
  }

  #emit(waiting = false): void {
    const { report } = this;
    this.#options.onProgress?.({
      done: this.#settled,
      total: this.#settings.total,
      accepted: report.accepted,
      rejected: report.rejectedCount,
      batches: report.batches,
      waiting,
    });
  }
}
