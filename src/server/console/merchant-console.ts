import type { OpenAPIHono } from '@hono/zod-openapi';
import { requestBodyLimit } from '../../../adapters/http-server/body-limit.js';
import { z } from 'zod';
import type { NodeEnv } from '../../../adapters/http-server/node-env.js';
import { HttpProblem } from '../../../adapters/http-server/problem.js';
import { countRequests, requestCounter } from '../../../adapters/http-server/request-metrics.js';
import { streamChanges } from '../../../adapters/http-server/change-stream.js';
import { TopicFeed } from '../../../adapters/http-server/topic-feed.js';
import { mountWebPage } from '../../../adapters/http-server/web-pages.js';
import type { BackOffice } from '../../cashdesk/back-office/service.js';
import type { CashDeskService } from '../../cashdesk/service.js';
import { validationErrors } from '../../contracts/validation-errors.js';
import { PushMessage, SubId } from '../../contracts/push/bodies.js';
import type { RunningLoyaltyProgram } from '../../loyalty-program/start.js';
import { PushError } from '../../push/errors.js';
import type { RunningSandbox } from '../../sandbox/server.js';
import type { CallbackLog } from './callback-log.js';
import type { CampaignRunner } from './campaigns.js';
import { metricsView, type MetricsView } from './metrics-view.js';
import { mountConsoleReports } from './reports.js';
import { transactionViews } from './transactions.js';

/** What changed, for the merchant console's page: it reads that part again. */
export type ConsoleTopic = 'payments' | 'webhooks' | 'campaigns' | 'callbacks' | 'loyalty' | 'metrics';

/** Where the merchant console lives on the cash desk server. */
export const MERCHANT_CONSOLE_PATH = '/console';

/** Options of {@link MerchantConsole}. */
export interface MerchantConsoleOptions {
  sandbox: RunningSandbox;
  loyalty: RunningLoyaltyProgram;
  callbacks: CallbackLog;
  campaigns: CampaignRunner;
  /** The tills whose payments are listed. */
  tills: readonly string[];
  /** How often the metrics are sampled while a page listens. Default 1000 ms. */
  metricsSampleMs?: number;
}

const CampaignBody = z
  .object({
    csv: z.string({ error: 'must be the CSV text' }).min(1, { error: 'must not be empty' }),
    format: z.enum(['csv', 'ndjson']).optional(),
    subId: SubId,
    title: PushMessage.shape.title,
    text: PushMessage.shape.text,
  })
  .strict();

const HISTORY_SAMPLES = 120;

/**
 * The merchant console on the cash desk server of the demo system:
 * the page at `/console`, its JSON under `/console/api/` (transactions with
 * their status history and webhook deliveries, refunds, campaigns and their
 * per-number results, callbacks received, loyalty cards and credits, the cash
 * desk metrics) and `/console/api/events`, server-sent change notices. It
 * reads the other servers in-process: the demo system runs them in one
 * process. No login: it exists in the demo system only, bound to loopback by default.
 */
export class MerchantConsole {
  readonly feed = new TopicFeed<ConsoleTopic>();
  readonly #options: MerchantConsoleOptions;
  readonly #unsubscribe: Array<() => void> = [];
  readonly #history: MetricsView['history'] = [];
  #sampler: ReturnType<typeof setInterval> | undefined;

  constructor(options: MerchantConsoleOptions) {
    this.#options = options;
    const topics = { pay: 'payments', webhooks: 'webhooks', loyalty: 'loyalty', push: 'campaigns' } as const;
    this.#unsubscribe.push(
      options.sandbox.sandbox.context.changes.subscribe({
        change: (topic) => this.feed.publish(topics[topic]),
        closed: () => {},
      }),
    );
  }

  /** Mounts the page and its routes on the cash desk server's app (`startServer`'s `mount`). */
  mount(app: OpenAPIHono<NodeEnv>, service: CashDeskService, backOffice?: BackOffice): void {
    const api = `${MERCHANT_CONSOLE_PATH}/api`;
    mountWebPage(app, MERCHANT_CONSOLE_PATH, 'merchant');
    if (backOffice !== undefined) mountConsoleReports(app, api, backOffice, () => this.feed.publish('payments'));
    const payments = service.payments;
    if (payments !== undefined) {
      for (const till of this.#options.tills) {
        void payments
          .subscribe(till, () => this.feed.publish('payments'))
          .then(
            (off) => this.#unsubscribe.push(off),
            () => {},
          );
      }
    }
    this.#sampler = setInterval(() => void this.#sample(service), this.#options.metricsSampleMs ?? 1000);
    this.#sampler.unref();

    // Coalesced over 250 ms: a campaign's thousand callbacks become a few reads of its results, not a thousand.
    app.get(`${api}/events`, (c) => streamChanges(c, (listener) => this.feed.subscribe(listener), { coalesceMs: 250 }));
    app.get(`${api}/transactions`, async (c) =>
      c.json({
        transactions:
          payments === undefined ? [] : await transactionViews(payments, this.#options.tills, this.#options.sandbox),
      }),
    );
    app.get(`${api}/metrics`, async (c) => c.json(await metricsView(service.metrics.registry, this.#history)));
    app.get(`${api}/callbacks`, (c) => {
      const type = c.req.query('type');
      return c.json({
        counts: this.#options.callbacks.counts(),
        callbacks: this.#options.callbacks.recent(type === '' ? undefined : type),
      });
    });
    app.get(`${api}/loyalty`, async (c) => {
      const { store } = this.#options.loyalty;
      const [cards, credits] = await Promise.all([store.recentCards(50), store.recentCredits(50)]);
      return c.json({ cards, credits });
    });
    app.get(`${api}/campaigns`, (c) => c.json({ campaigns: this.#options.campaigns.list() }));
    const campaignLimit = requestBodyLimit(8 * 1024 * 1024, () => {
      throw new HttpProblem('PAYLOAD_TOO_LARGE', ['body: at most 8 MiB']);
    });
    // Counted like the server's own routes: a refused campaign is an answer too.
    app.post(`${api}/campaigns`, countRequests(requestCounter(service.metrics)), campaignLimit, async (c) => {
      let json: unknown;
      try {
        json = await c.req.json();
      } catch {
        throw new HttpProblem('BAD_REQUEST', ['body: must be JSON']);
      }
      const parsed = CampaignBody.safeParse(json);
      if (!parsed.success) throw new HttpProblem('BAD_REQUEST', validationErrors(parsed.error));
      try {
        return c.json(await this.#options.campaigns.start(parsed.data));
      } catch (error) {
        if (error instanceof PushError && error.code === 'SOURCE_INVALID')
          throw new HttpProblem('BAD_REQUEST', [error.message]);
        throw error;
      }
    });
    app.get(`${api}/campaigns/:campaignId/results`, (c) => {
      const results = this.#options.campaigns.results(c.req.param('campaignId'));
      if (results === undefined) throw new HttpProblem('NOT_FOUND', ['campaignId: no such campaign']);
      return c.json({
        results: results.map((r) => ({
          ...r,
          ...(r.messageId ? { callback: this.#options.callbacks.stateOf(r.messageId) ?? null } : {}),
        })),
      });
    });
  }

  /** Takes a metrics sample while a page listens (the live line moves each sample), and tells the pages. */
  async #sample(service: CashDeskService): Promise<void> {
    if (this.feed.listeners === 0) return;
    const at = new Date().toISOString();
    const { values } = await service.metrics.verifications.get();
    this.#history.push({ at, total: values.reduce((sum, s) => sum + s.value, 0) });
    if (this.#history.length > HISTORY_SAMPLES) this.#history.shift();
    this.feed.publish('metrics');
  }

  /** Ends the pages' streams, stops sampling and the campaigns under way. */
  async close(): Promise<void> {
    this.feed.close();
    if (this.#sampler !== undefined) clearInterval(this.#sampler);
    for (const off of this.#unsubscribe.splice(0)) off();
    await this.#options.campaigns.close();
  }
}
