import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { PushError } from '../../push/errors.js';
import type { PushClient } from '../../push/client.js';
import { sendCampaign } from '../../push/campaign.js';
import { readMsisdnText } from '../../push/sources.js';

/** A campaign as the merchant console shows it. */
export interface CampaignView {
  campaignId: string;
  subId: string;
  title: string;
  text: string;
  startedAt: string;
  /** Numbers read from the upload (after the header). */
  total: number;
  /** Settled so far: accepted or rejected. */
  done: number;
  accepted: number;
  rejected: number;
  batches: number;
  /** Waiting out a 304 (`Retry-After`) between batches. */
  waiting: boolean;
  state: 'running' | 'finished' | 'failed';
  error?: string;
}

/** One number's outcome: its message id, or why it was not sent. */
export interface NumberOutcome {
  msisdn: string;
  messageId?: string;
  reason?: string;
}

/** What a person asks for: the numbers as CSV (or NDJSON) text, the subId and the message. */
export interface CampaignRequest {
  csv: string;
  subId: string;
  title: string;
  text: string;
  format?: 'csv' | 'ndjson';
}

/** Numbers per batch: small enough that a campaign of a thousand shows its progress move. */
const CONSOLE_BATCH = 250;
/** Uploads bigger than this are refused: the console keeps each number's result in memory. */
export const MAX_CAMPAIGN_NUMBERS = 100_000;

/**
 * The merchant console's campaigns: each upload is sent with `sendCampaign`
 * (normalised, de-duplicated, batched, 304s waited out) through the console's
 * Push account, its progress and per-number results kept in memory and each
 * change told through `changed()`.
 */
export class CampaignRunner {
  readonly #campaigns = new Map<string, { view: CampaignView; results: NumberOutcome[]; run: Promise<void> }>();
  readonly #stop = new AbortController();

  constructor(
    private readonly client: PushClient,
    private readonly changed: () => void,
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Reads the numbers and starts sending in the background.
   * @throws PushError `SOURCE_INVALID` for an upload without numbers or over {@link MAX_CAMPAIGN_NUMBERS}.
   */
  async start(request: CampaignRequest): Promise<CampaignView> {
    const numbers: string[] = [];
    for await (const n of readMsisdnText(request.csv, { format: request.format ?? 'csv' })) {
      numbers.push(n);
      if (numbers.length > MAX_CAMPAIGN_NUMBERS)
        throw new PushError(
          'SOURCE_INVALID',
          `csv: more than ${MAX_CAMPAIGN_NUMBERS} numbers; send it with sendCampaign or the push send command`,
        );
    }
    if (numbers.length === 0) throw new PushError('SOURCE_INVALID', 'csv: no numbers in the upload');
    const campaignId = `console-${randomUUID()}`;
    const view: CampaignView = {
      campaignId,
      subId: request.subId,
      title: request.title,
      text: request.text,
      startedAt: new Date(this.clock()).toISOString(),
      total: numbers.length,
      done: 0,
      accepted: 0,
      rejected: 0,
      batches: 0,
      waiting: false,
      state: 'running',
    };
    const results: NumberOutcome[] = [];
    const run = sendCampaign({
      client: this.client,
      numbers,
      total: numbers.length,
      subId: request.subId,
      message: { title: request.title, text: request.text },
      campaignId,
      batchSize: CONSOLE_BATCH,
      signal: this.#stop.signal,
      onBatch: (batch) => {
        for (const m of batch.messages) results.push({ msisdn: m.msisdn, messageId: m.messageId });
        for (const r of batch.rejected) results.push({ msisdn: r.msisdn, reason: r.reason });
      },
      onProgress: (p) => {
        Object.assign(view, {
          done: p.done,
          accepted: p.accepted,
          rejected: p.rejected,
          batches: p.batches,
          waiting: p.waiting,
        });
        this.changed();
      },
    }).then(
      (report) => {
        Object.assign(view, {
          done: report.read,
          accepted: report.accepted,
          rejected: report.rejectedCount,
          state: 'finished',
          waiting: false,
        });
        // Numbers refused before sending (invalid, duplicates) are only in the report.
        const seen = new Set(results.map((r) => r.msisdn));
        for (const r of report.rejected) if (!seen.has(r.msisdn)) results.push({ msisdn: r.msisdn, reason: r.reason });
        this.changed();
      },
      (error: unknown) => {
        view.state = 'failed';
        view.error = error instanceof Error ? error.message : String(error);
        this.logger.warn({ err: error, campaignId }, 'console campaign failed');
        this.changed();
      },
    );
    this.#campaigns.set(campaignId, { view, results, run });
    this.changed();
    return view;
  }

  /** Every campaign, newest first. */
  list(): CampaignView[] {
    return [...this.#campaigns.values()].map((c) => c.view).reverse();
  }

  /** A campaign's per-number outcomes, or undefined for an unknown id. */
  results(campaignId: string): NumberOutcome[] | undefined {
    return this.#campaigns.get(campaignId)?.results;
  }

  /** Stops the campaigns under way and waits for them (on shutdown). */
  async close(): Promise<void> {
    this.#stop.abort();
    await Promise.all([...this.#campaigns.values()].map((c) => c.run));
  }
}
