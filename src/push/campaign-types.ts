import type { PushMessage } from '../contracts/push/bodies.js';
import type { PushClient } from './client.js';
import type { MsisdnSource } from './sources.js';
import type { Sleep } from '../time/sleep.js';

/** Options of `sendCampaign`. */
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
   * An NDJSON file receiving one line per number (a `NumberResult`). With `progressFile` a resume
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
  /**
   * True when an earlier run had completed it: nothing was sent now, and `messages` is empty (its lines are in the
   * results file).
   */
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
