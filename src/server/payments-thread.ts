import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { auditCaller } from '../cashdesk/back-office/audit-context.js';
import type { BackOfficeRecords } from '../cashdesk/back-office/records.js';
import type { Payments } from '../cashdesk/payments/api.js';
import { PaymentsError } from '../cashdesk/payments/errors.js';
import type { UpdateListener } from '../cashdesk/payments/feed.js';
import type { IntentName, IntentParams, IntentResult } from '../cashdesk/payments/intents.js';
import { preloadPglite } from '../db/pglite-preload.js';
import { currentRequestId } from '../log/request-id.js';
import { currentTraceparent, threadTelemetry } from '../telemetry/index.js';
import type { NotUnderstoodCount } from './pay-words.js';
import type { PaymentsConfig, PaymentsHost, ServerPayments } from './payments.js';
import type { DiscrepancyCounts } from './payments-reports.js';
import { relog } from './relog.js';
import {
  fromWire,
  toWire,
  type FromPayments,
  type PaymentsCall,
  type PaymentsWorkerData,
  type ToPayments,
  type WireRequest,
  type WireResponse,
  headerPairs,
} from './payments-wire.js';

type Waiter = { resolve(value: unknown): void; reject(error: unknown): void };

/**
 * The worker's entry: the built .js next to this file; from the .ts sources (tests, `npm run bench`), the built
 * worker `WPK_PAYMENTS_WORKER` names (the tests' global setup names dist/'s once it is current: loading the
 * sources again through tsx cost each server ~1.5 s of CPU), else the .ts source under tsx.
 */
function startWorker(workerData: PaymentsWorkerData): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./payments-worker.js', here), { workerData });
  const built = process.env.WPK_PAYMENTS_WORKER;
  if (built) return new Worker(pathToFileURL(built), { workerData });
  // A worker does not inherit the loader hooks of its parent: it registers tsx's (its ESM API, `tsx/esm/api`) itself.
  const tsx = pathToFileURL(
    join(dirname(createRequire(here).resolve('tsx/package.json')), 'dist/esm/api/index.mjs'),
  ).href;
  const entry = new URL('./payments-worker.ts', here).href;
  const boot =
    `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return ` + `import(${JSON.stringify(entry)}); })`;
  return new Worker(boot, { eval: true, workerData });
}

/**
 * The payments on a thread of their own (the server's default): payment
 * sessions, their database and the Pay API client run on a worker thread,
 * so that their work (PGlite queries, HTTP calls, JSON) never holds up the
 * main thread, where the tills' barcode verifications are answered. Each
 * call crosses as a message; refusals come back as {@link RelayedRefusal}s
 * (the transports answer them as before), and the thread asks this one to
 * verify scans and sign Pay API bodies (the verifier, its replay store and
 * its metrics stay here).
 */
class ThreadPayments implements Payments, BackOfficeRecords {
  readonly #worker: Worker;
  readonly #calls = new Map<number, Waiter>();
  readonly #listeners = new Map<number, UpdateListener>();
  readonly #webhooks: boolean;
  readonly #count: NotUnderstoodCount | undefined;
  /** Set after construction by {@link openPaymentsThread}: the background comparison's counts. */
  discrepancies: DiscrepancyCounts | undefined;
  #next = 1;
  #stopped: Error | undefined;
  /** The thread's last word on its health: why it is down, or undefined. */
  #down: string | undefined;

  constructor(worker: Worker, webhooks: boolean, count?: NotUnderstoodCount) {
    this.#worker = worker;
    this.#webhooks = webhooks;
    this.#count = count;
  }

  /** Handles a message of the thread (after it is ready). */
  receive(message: FromPayments, host: PaymentsHost, logger: Logger): void {
    switch (message.type) {
      case 'result': {
        const waiter = this.#calls.get(message.id);
        this.#calls.delete(message.id);
        if (message.ok) waiter?.resolve(message.value);
        else waiter?.reject(fromWire(message.error));
        return;
      }
      case 'update':
        try {
          this.#listeners.get(message.subscription)?.(message.update);
        } catch {
          // the connection's own trouble
        }
        return;
      case 'ask':
        void this.#answer(
          message.id,
          message.what === 'verify'
            ? () => host.verifyForPayment(message.arg, message.till)
            : () => host.token(message.arg),
        );
        return;
      case 'log':
        relog(logger, message.line);
        return;
      case 'count':
        this.#count?.(message.kind, message.operation);
        return;
      case 'health':
        this.#down = message.down;
        return;
      case 'discrepancies':
        this.discrepancies?.(message.counts);
        return;
      default:
    }
  }

  /** Why the payments are unhealthy as the thread last said (or stopped), or undefined. */
  health(): string | undefined {
    return this.#stopped?.message ?? this.#down;
  }

  /** The thread is gone: calls under way and later ones are refused. */
  stopped(error: Error): void {
    this.#stopped = error;
    for (const waiter of this.#calls.values()) waiter.reject(error);
    this.#calls.clear();
  }

  call<T>(call: PaymentsCall, ...args: unknown[]): Promise<T> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    const id = this.#next++;
    // The request's id crosses with the call: the thread's Pay API requests carry it on.
    const rid = currentRequestId();
    const tp = currentTraceparent();
    // And its caller: the refunds' audit records are written there, with their effect.
    const caller = auditCaller();
    return new Promise<T>((resolve, reject) => {
      this.#calls.set(id, { resolve: resolve as (value: unknown) => void, reject });
      const message: ToPayments = {
        type: 'call',
        id,
        call,
        args,
        ...(rid === undefined ? {} : { requestId: rid }),
        ...(caller.actor === undefined && caller.address == null ? {} : { caller }),
      };
      this.#post(tp === undefined ? message : { ...message, traceparent: tp });
    });
  }

  init(): Promise<void> {
    return this.call('init');
  }
  intent<N extends IntentName>(name: N, tillId: string, params: IntentParams<N>): Promise<IntentResult<N>> {
    return this.call('intent', name, tillId, params);
  }
  search(...args: Parameters<BackOfficeRecords['search']>): ReturnType<BackOfficeRecords['search']> {
    return this.call('search', ...args);
  }
  recordAudit(...args: Parameters<BackOfficeRecords['recordAudit']>): ReturnType<BackOfficeRecords['recordAudit']> {
    return this.call('recordAudit', ...args);
  }
  readAudit(...args: Parameters<BackOfficeRecords['readAudit']>): ReturnType<BackOfficeRecords['readAudit']> {
    return this.call('readAudit', ...args);
  }
  reconciliation(
    ...args: Parameters<BackOfficeRecords['reconciliation']>
  ): ReturnType<BackOfficeRecords['reconciliation']> {
    return this.call('reconciliation', ...args);
  }
  dayClose(...args: Parameters<BackOfficeRecords['dayClose']>): ReturnType<BackOfficeRecords['dayClose']> {
    return this.call('dayClose', ...args);
  }

  async subscribe(tillId: string, listener: UpdateListener): Promise<() => void> {
    const sub = this.#next++;
    this.#listeners.set(sub, listener);
    const unsubscribe = () => {
      if (this.#listeners.delete(sub) && !this.#stopped) this.#post({ type: 'unsubscribe', subscription: sub });
    };
    try {
      // Updates come before the answer (one port, in order): the current states first, as in process.
      await this.call('subscribe', tillId, sub);
    } catch (error) {
      unsubscribe();
      throw error;
    }
    return unsubscribe;
  }

  webhookHandler(): ((request: Request) => Promise<Response>) | undefined {
    if (!this.#webhooks) return undefined;
    return async (request) => {
      const wire: WireRequest = {
        headers: headerPairs(request.headers),
        body: new Uint8Array(await request.arrayBuffer()),
      };
      const { status, headers, body }: WireResponse = await this.call('webhook', wire);
      return new Response(status === 204 ? null : body, { status, headers });
    };
  }

  async close(): Promise<void> {
    if (this.#stopped) return;
    try {
      await this.call('close');
    } finally {
      this.stopped(new PaymentsError('PAYMENTS_CLOSED', 'the server is stopping: retry on another instance or later'));
      await this.#worker.terminate();
    }
  }

  #post(message: ToPayments): void {
    this.#worker.postMessage(message);
  }

  async #answer(id: number, work: () => unknown): Promise<void> {
    try {
      this.#post({ type: 'answer', id, ok: true, value: await work() });
    } catch (error) {
      this.#post({ type: 'answer', id, ok: false, error: toWire(error) });
    }
  }
}

/**
 * Starts the payments thread (see {@link ThreadPayments}): it opens the
 * database and the Pay API client as {@link openServerPayments} does, and
 * resolves once they are open (or rejects with why they are not).
 */
export async function openPaymentsThread(
  config: PaymentsConfig,
  host: PaymentsHost,
  logger: Logger,
  count?: NotUnderstoodCount,
  discrepancies?: DiscrepancyCounts,
): Promise<ServerPayments> {
  const { pay, database, stores, auditRetentionDays } = config;
  const pglite = database.url === undefined ? await preloadPglite() : undefined;
  const worker = startWorker({
    ...(pglite === undefined ? {} : { pglite }),
    config: { pay, database, stores, auditRetentionDays },
    logLevel: logger.level,
    niceness: config.pay.threadNiceness,
    telemetry: threadTelemetry(),
  });
  const webhooks = config.pay.webhookSecret !== undefined;
  const payments = new ThreadPayments(worker, webhooks, count);
  payments.discrepancies = discrepancies;
  const databaseKind = await new Promise<'pglite' | 'postgres'>((resolve, reject) => {
    worker.on('message', (message: FromPayments) => {
      if (message.type === 'ready') resolve(message.databaseKind);
      else if (message.type === 'failed') reject(fromWire(message.error));
      else payments.receive(message, host, logger);
    });
    worker.on('error', (error) => {
      logger.error({ err: error }, 'payments thread failed: payments are refused until the server restarts');
      reject(error);
      payments.stopped(new PaymentsError('PAYMENTS_CLOSED', 'the payments are unavailable: retry later'));
    });
    worker.on('exit', (code) => {
      reject(new Error(`the payments thread exited with ${code}`));
      payments.stopped(new PaymentsError('PAYMENTS_CLOSED', 'the payments are unavailable: retry later'));
    });
  }).catch(async (error: unknown) => {
    await worker.terminate();
    throw error;
  });
  return {
    payments,
    databaseKind,
    health: () => payments.health(),
    // From the thread's last word, kept here: a busy host (the thread runs at a lower priority) is not an outage.
    async ping() {
      const down = payments.health();
      if (down !== undefined) throw new Error(down);
    },
    close: () => payments.close(),
  };
}
