import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { pino } from 'pino';
import { withAuditCaller } from '../cashdesk/back-office/audit-context.js';
import type { Payments } from '../cashdesk/payments/api.js';
import type { IntentName, IntentParams } from '../cashdesk/payments/intents.js';
import type { BarcodeVerification } from '../contracts/barcode.js';
import { adoptPglitePreload } from '../db/pglite-preload.js';
import { logPolicyOptions, withRequestId } from '../log/index.js';
import { startThreadTelemetry, withTraceparent } from '../telemetry/index.js';
import { openServerPayments, type ServerPayments } from './payments.js';
import {
  fromWire,
  headerPairs,
  toWire,
  type FromPayments,
  type PaymentsWorkerData,
  type ToPayments,
  type WireRequest,
  type WireResponse,
} from './payments-wire.js';

// The payments thread (see payments-thread.ts): the payments service with its
// database and Pay API client, driven by messages from the server's main
// thread, which keeps the tills' connections, verification and tokens.

const port = parentPort!;
const { config, logLevel, niceness, telemetry, pglite } = workerData as PaymentsWorkerData;
if (pglite !== undefined) adoptPglitePreload(pglite);
// The SDK's registration is per thread: the same tracing as the main thread's, before anything makes a span.
const stopTelemetry = await startThreadTelemetry(telemetry);

/**
 * Lowers this thread's priority alone (Linux: setpriority takes a thread id,
 * read from /proc/thread-self), so that on a busy core the main thread, with
 * the tills' verifications, runs first. Elsewhere, or when refused, the thread
 * keeps the process's priority.
 */
function lowerPriority(by: number): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0 && tid !== process.pid) setPriority(tid, Math.min(19, getPriority(tid) + by));
  } catch {
    // see above
  }
}
if (niceness > 0) lowerPriority(niceness);
const send = (message: FromPayments) => port.postMessage(message);

// Lines go back to the server's logger (under the policy here already: nothing secret crosses).
const logger = pino(
  { level: logLevel, ...logPolicyOptions() },
  {
    write: (line: string) => send({ type: 'log', line }),
  },
);

let nextAsk = 1;
const asked = new Map<number, { resolve(value: unknown): void; reject(error: unknown): void }>();
function ask<T>(what: 'verify' | 'token', arg: string, till = ''): Promise<T> {
  const id = nextAsk++;
  return new Promise<T>((resolve, reject) => {
    asked.set(id, { resolve: resolve as (value: unknown) => void, reject });
    send({ type: 'ask', id, what, arg, till });
  });
}
const host = {
  verifyForPayment: (fullBarcode: string, tillId: string) => ask<BarcodeVerification>('verify', fullBarcode, tillId),
  token: (requestData: string) => ask<string>('token', requestData),
};

const subscriptions = new Map<number, Promise<() => void>>();

async function webhook(
  handler: (request: Request) => Promise<Response>,
  { headers, body }: WireRequest,
): Promise<WireResponse> {
  const response = await handler(
    new Request('http://payments.invalid/webhooks/pay', { method: 'POST', headers, body }),
  );
  return {
    status: response.status,
    headers: headerPairs(response.headers),
    body: new Uint8Array(await response.arrayBuffer()),
  };
}

/** How often the thread looks at its own health (no query: the pool's and the channel's state). */
const HEALTH_LOOK_MS = 200;

/**
 * Tells the main thread each change of this thread's health, so that `/healthz` answers there from the last word
 * and never waits on this (lower priority) thread.
 */
function reportHealth(pay: ServerPayments): void {
  let last: string | undefined;
  const look = () => {
    const down = pay.health();
    if (down === last) return;
    last = down;
    send({ type: 'health', ...(down === undefined ? {} : { down }) });
  };
  look();
  setInterval(look, HEALTH_LOOK_MS).unref();
}

function run(
  pay: ServerPayments,
  webhookHandler: ((request: Request) => Promise<Response>) | undefined,
  call: string,
  args: unknown[],
): Promise<unknown> {
  const p: Payments = pay.payments;
  switch (call) {
    case 'init':
      return p.init();
    case 'ping':
      return pay.ping();
    case 'close':
      return pay.close().finally(stopTelemetry);
    case 'intent': {
      const [name, tillId, params] = args as [IntentName, string, IntentParams<IntentName>];
      return p.intent(name, tillId, params);
    }
    case 'webhook':
      return webhook(webhookHandler!, args[0] as WireRequest);
    case 'subscribe': {
      const [tillId, sub] = args as [string, number];
      const subscribed = p.subscribe(tillId, (update) => send({ type: 'update', subscription: sub, update }));
      subscriptions.set(sub, subscribed);
      return subscribed.then(() => undefined);
    }
    default: {
      // The back office's calls (search, recordAudit, readAudit), by name.
      const method = (p as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[call]!;
      return method.apply(p, args);
    }
  }
}

try {
  const pay = await openServerPayments(
    config,
    host,
    logger,
    undefined,
    (kind, operation) => {
      send({ type: 'count', kind, operation });
    },
    (counts) => send({ type: 'discrepancies', counts: { ...counts } }),
  );
  const webhookHandler = pay.payments.webhookHandler();
  reportHealth(pay);
  port.on('message', (message: ToPayments) => {
    if (message.type === 'answer') {
      const waiter = asked.get(message.id);
      asked.delete(message.id);
      if (message.ok) waiter?.resolve(message.value);
      else waiter?.reject(fromWire(message.error));
    } else if (message.type === 'unsubscribe') {
      const subscribed = subscriptions.get(message.subscription);
      subscriptions.delete(message.subscription);
      void subscribed?.then(
        (unsubscribe) => unsubscribe(),
        () => {},
      );
    } else {
      const { id, call, args, requestId: rid, traceparent, caller } = message;
      const as = () => withAuditCaller(caller ?? {}, () => run(pay, webhookHandler, call, args));
      const traced = () => withTraceparent(traceparent, as);
      (rid === undefined ? traced() : withRequestId(rid, traced)).then(
        (value) => send({ type: 'result', id, ok: true, value }),
        (error: unknown) => send({ type: 'result', id, ok: false, error: toWire(error) }),
      );
    }
  });
  send({ type: 'ready', databaseKind: pay.databaseKind });
} catch (error) {
  send({ type: 'failed', error: toWire(error) });
}
