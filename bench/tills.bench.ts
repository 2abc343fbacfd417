import { serveHttp } from '../adapters/http-server/serve.js';
import { demoConfig } from '../src/demo.js';
import { createVerifier } from '../src/entries/index.js';
import {
  createPayClient,
  createPaymentSession,
  createPayWebhookHandler,
  createTransactionUpdates,
} from '../src/entries/pay.js';
import { BridgeTill, type SessionUpdate } from './bridge-till.js';
import { type BenchGroup, type Measured, median } from './harness.js';
import { checkBuildIsFresh, pin, renice, startProbe, startScript, startServe } from './tills-processes.js';

// Sequential payments per flow, in blocks that alternate the flows (a burst of
// another job on the shared machine then hits both), and the tills of the load.
const PAYMENTS = Number(process.env.BENCH_TILL_PAYMENTS ?? 30);
const BLOCK = 5;
const TILLS = Number(process.env.BENCH_TILLS ?? 200);
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 3_000);
const END_PHASES = new Set(['unsuccessful', 'unavailable', 'blocked', 'abandoned', 'refunded', 'unknown']);
const BASKET = {
  items: [
    { name: 'Coffee', article: 'B-1', quantity: 2, price: 15_000 },
    { name: 'Bun', article: 'B-2', quantity: 1, price: 4_500 },
  ],
  discountAmount: 0,
};
const TOTAL = 2 * 15_000 + 4_500;

interface Card {
  cardNumber: string;
  cardSession: string;
  barcode: string;
}

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(q * values.length) - 1)]!;
const spread = (values: number[]) => {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return (Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / Math.max(1, values.length - 1)) / mean) * 100;
};

/** The sandbox's app and controls, as the customer and the test operator use them. */
function sandboxApi(url: string) {
  const post = async <T>(path: string, body: unknown = {}): Promise<T> => {
    const res = await fetch(url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`sandbox ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  return {
    issueCard: () => post<Card>('/sandbox/cards', { walletPayIsDefault: true }),
    // The customer taps again when the app's request did not get through (a socket the sandbox closed as it was
    // reused).
    confirm: (transactionId: string) =>
      post(`/sandbox/app/transactions/${transactionId}/confirm`).catch((error: Error) =>
        error.message === 'fetch failed'
          ? post(`/sandbox/app/transactions/${transactionId}/confirm`)
          : Promise.reject(error),
      ),
    webhooksTo: (webhookUrl: string) =>
      post('/sandbox/partners', {
        partnerId: demoConfig.verifier.partnerId,
        key: demoConfig.verifier.key,
        webhookUrl,
        webhookSecret: demoConfig.pay.webhookSecret,
      }),
    succeededByCard: async () => (await (await fetch(`${url}/bench/succeeded`)).json()) as Record<string, number>,
  };
}
type SandboxApi = ReturnType<typeof sandboxApi>;

/**
 * Routes a till's notifications to the payment they belong to. Confirms each
 * payment in the app as soon as its invoice exists (once), and settles when
 * it succeeds; any end other than success fails it.
 */
class PaymentWatch {
  readonly #waiting = new Map<
    string,
    { confirmed: boolean; resolve(u: SessionUpdate): void; reject(e: Error): void }
  >();
  readonly succeeded = new Map<string, number>();

  constructor(readonly sandbox: SandboxApi) {}

  attach(till: BridgeTill): void {
    till.onUpdate = (update) => {
      if (update.phase === 'succeeded')
        this.succeeded.set(update.paymentId, (this.succeeded.get(update.paymentId) ?? 0) + 1);
      this.#see(update);
    };
  }

  expect(paymentId: string): Promise<SessionUpdate> {
    return new Promise((resolve, reject) => this.#waiting.set(paymentId, { confirmed: false, resolve, reject }));
  }

  #see(update: { paymentId: string; phase: string; transactionId?: string }): void {
    const waiter = this.#waiting.get(update.paymentId);
    if (waiter === undefined) return;
    if (update.phase === 'succeeded') {
      this.#waiting.delete(update.paymentId);
      waiter.resolve(update as SessionUpdate);
    } else if (END_PHASES.has(update.phase)) {
      this.#waiting.delete(update.paymentId);
      waiter.reject(new Error(`payment ${update.paymentId} ended ${update.phase}`));
    } else if (update.transactionId !== undefined && update.phase === 'pending' && !waiter.confirmed) {
      waiter.confirmed = true;
      this.sandbox.confirm(update.transactionId).catch((error: Error) => {
        this.#waiting.delete(update.paymentId);
        waiter.reject(error);
      });
    }
  }

  /** pay.start's own answer may already carry the pending invoice. */
  started(answer: { paymentId: string; phase: string; transactionId?: string }): void {
    this.#see(answer);
  }
}

/** One payment through the bridge: pay.start with the scanned barcode until pay.sessionUpdated(succeeded); ms. */
async function bridgedPayment(till: BridgeTill, watch: PaymentWatch, card: Card, paymentId: string): Promise<number> {
  const started = performance.now();
  const done = watch.expect(paymentId);
  const answer = await till.call<{ paymentId: string; phase: string; transactionId?: string; totalAmount: number }>(
    'pay.start',
    { fullBarcode: card.barcode, basket: BASKET, paymentId },
  );
  if (answer.totalAmount !== TOTAL)
    throw new Error(`pay.start answered totalAmount ${answer.totalAmount}, expected ${TOTAL}`);
  watch.started(answer);
  await done;
  return performance.now() - started;
}

async function inBatches<T>(count: number, size: number, make: () => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  while (out.length < count)
    out.push(...(await Promise.all(Array.from({ length: Math.min(size, count - out.length) }, make))));
  return out;
}

/**
 * Tills' payment performance: a till's wallet payment through the cash desk
 * server's bridge (pay.start -> pay.sessionUpdated(succeeded), the customer
 * confirming in the sandbox's app, instant bank, status by webhook) against
 * the same payment driven in this process by createPaymentSession on the Pay
 * client (webhooks into createTransactionUpdates): target <= 1.3x the time.
 * Then TILLS tills pay at once: none lost or doubled, and barcode.verify's p99
 * meanwhile within 2x of idle, idle measured just before and just after.
 *
 * As in production: the cash desk server is `serve --config FILE` from dist/
 * (PGlite in memory, info logs to a file) alone on core 0; the sandbox (the
 * wallet service, not ours), the paying tills and the in-process session
 * (this process) and the probe till (a process of its own) on core 1. The
 * probe runs at niceness -10 (when allowed), so it is not queued behind the
 * load it shares core 1 with: its latencies are the server's, not its core's.
 */
export async function tillsGroups(): Promise<Array<{ group: BenchGroup; results: Map<string, Measured> }>> {
  checkBuildIsFresh();
  pin('1', process.pid);
  const stops: Array<() => unknown> = [() => pin('0,1', process.pid)];
  try {
    const sandboxServer = await startScript('tills-sandbox.ts', '1');
    stops.push(() => sandboxServer.stop());
    const sandboxUrl = `http://127.0.0.1:${sandboxServer.port}`;
    const sandbox = sandboxApi(sandboxUrl);
    const cashDeskServer = await startServe(sandboxUrl, TILLS + 2, '0');
    stops.push(() => cashDeskServer.stop());
    const wsUrl = `ws://127.0.0.1:${cashDeskServer.port}/ws`;
    const tillKey = (n: number) => `bench-till-key-${n}-not-secret`;

    // The baseline's own webhook receiver, feeding its sessions.
    const updates = createTransactionUpdates();
    const handler = createPayWebhookHandler({ secrets: demoConfig.pay.webhookSecret, updates });
    const receiver = await serveHttp({ fetch: (request: Request) => handler(request) }, { host: '127.0.0.1', port: 0 });
    stops.push(() => receiver.close());
    const verifier = createVerifier({ ...demoConfig.verifier, replay: false });
    stops.push(() => verifier.close());
    const client = createPayClient({ baseUrl: sandboxUrl, verifier });
    const directPayment = async (card: Card): Promise<number> => {
      const started = performance.now();
      const session = createPaymentSession({
        client,
        cardSession: card.cardSession,
        basket: BASKET,
        updates,
        rescan: () => Promise.reject(new Error('no rescan in the benchmark')),
      });
      const phase = await session.start();
      if (phase !== 'pending') throw new Error(`in-process session: ${phase} after start`);
      await sandbox.confirm(String(session.transactionId!));
      const state = await session.waitForResult();
      if (state.status !== 'succeeded') throw new Error(`in-process session: ${state.status}`);
      session.close();
      return performance.now() - started;
    };

    const till = await BridgeTill.connect(wsUrl, tillKey(TILLS));
    stops.push(() => till.close());
    const watch = new PaymentWatch(sandbox);
    watch.attach(till);
    const bridged: number[] = [];
    const direct: number[] = [];
    let n = 0;
    // Warm-up round of each, unrecorded: JIT, keep-alive sockets, the databases' plans.
    for (const record of [false, ...Array.from({ length: Math.ceil(PAYMENTS / BLOCK) }, () => true)]) {
      await sandbox.webhooksTo(`${receiver.url}/webhooks/pay`);
      for (let i = 0; i < (record ? BLOCK : 2); i++) {
        const ms = await directPayment(await sandbox.issueCard());
        if (record) direct.push(ms);
      }
      await sandbox.webhooksTo(`http://127.0.0.1:${cashDeskServer.port}/webhooks/pay`);
      for (let i = 0; i < (record ? BLOCK : 2); i++) {
        const ms = await bridgedPayment(till, watch, await sandbox.issueCard(), `bench-seq-${n++}`);
        if (record) bridged.push(ms);
      }
    }
    process.stderr.write(`  measured ${direct.length} + ${bridged.length} sequential payments\n`);

    // TILLS tills paying at once, the probe till (its own process) verifying barcodes meanwhile.
    const probe = await startProbe(wsUrl, tillKey(TILLS + 1), '1');
    renice(-10, probe.pid);
    stops.push(() => probe.stop());
    const tills = await Promise.all(Array.from({ length: TILLS }, (_, i) => BridgeTill.connect(wsUrl, tillKey(i))));
    stops.push(() => {
      for (const t of tills) t.close();
    });
    const loadWatch = new PaymentWatch(sandbox);
    for (const t of tills) loadWatch.attach(t);
    const cards = await inBatches(TILLS, 20, () => sandbox.issueCard());
    const idleRun = async () => {
      const stop = probe.start();
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
      return stop();
    };
    const idleBefore = await idleRun();
    const stopLoaded = probe.start();
    const loadStarted = performance.now();
    const outcomes = await Promise.allSettled(
      tills.map((t, i) => bridgedPayment(t, loadWatch, cards[i]!, `bench-load-${i}`)),
    );
    const loadMs = performance.now() - loadStarted;
    const loaded = await stopLoaded();
    // Late duplicates (a second succeeded) arrive meanwhile, before counting.
    const idleAfter = await idleRun();
    const idle = [...idleBefore, ...idleAfter];
    const byCard = await sandbox.succeededByCard();
    const lost = outcomes.filter((o) => o.status === 'rejected').length;
    const doubledInSandbox = cards.filter((c) => (byCard[c.cardNumber] ?? 0) > 1).length;
    const missingInSandbox = cards.filter((c) => (byCard[c.cardNumber] ?? 0) === 0).length;
    const exactlyOnce = cards.filter(
      (c, i) => byCard[c.cardNumber] === 1 && outcomes[i]!.status === 'fulfilled',
    ).length;
    const toldTwice = [...loadWatch.succeeded.values()].filter((count) => count > 1).length;
    const firstError = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected')?.reason as
      | Error
      | undefined;
    process.stderr.write(
      `  ${TILLS} tills paid in ${loadMs.toFixed(0)} ms; ${idle.length} idle and ${loaded.length} loaded probes\n`,
    );

    const names = {
      bridge: 'bridge: pay.start -> pay.sessionUpdated(succeeded)',
      direct: 'in-process createPaymentSession: start -> result',
      p99Load: `barcode.verify p99 while ${TILLS} tills pay`,
      p99Idle: 'barcode.verify p99 idle (before and after)',
      once: `payments succeeded exactly once (of ${TILLS})`,
      all: `payments started`,
    };
    const perPayment = (name: string, values: number[]): Measured => ({
      name,
      hz: 1000 / median(values),
      rme: spread(values),
      samples: values.length,
      display: `${median(values).toFixed(1)} ms median`,
    });
    const p99 = (name: string, values: number[]): Measured => ({
      name,
      hz: 1000 / quantile(values, 0.99),
      rme: spread(values),
      samples: values.length,
      display:
        `${quantile(values, 0.99).toFixed(2)} ms (p50 ${quantile(values, 0.5).toFixed(2)}, max ` +
        `${Math.max(...values).toFixed(1)})`,
    });
    const results = new Map<string, Measured>([
      [names.bridge, perPayment(names.bridge, bridged)],
      [names.direct, perPayment(names.direct, direct)],
      [names.p99Load, p99(names.p99Load, loaded)],
      [names.p99Idle, p99(names.p99Idle, idle)],
      [names.once, { name: names.once, hz: exactlyOnce, rme: 0, samples: TILLS, display: String(exactlyOnce) }],
      [names.all, { name: names.all, hz: TILLS, rme: 0, samples: TILLS, display: String(TILLS) }],
    ]);
    const group: BenchGroup = {
      title:
        "Tills paying through the cash desk server's bridge against the sandbox (instant bank, webhooks; serve " +
        'from dist/ alone on core 0, sandbox, tills and probe on core 1)',
      cases: [],
      ratios: [
        {
          label: 'bridge vs in-process session, per payment (>= 0.77x rate = <= 1.3x time)',
          subject: names.bridge,
          baseline: names.direct,
          target: 0.77,
        },
        {
          label: `barcode.verify p99 during ${TILLS} payments vs idle (>= 0.5x = within 2x)`,
          subject: names.p99Load,
          baseline: names.p99Idle,
          target: 0.5,
        },
        {
          label: 'no payment lost or doubled (exactly once / started)',
          subject: names.once,
          baseline: names.all,
          target: 1,
        },
      ],
      notes: [
        `Per payment: the median of ${bridged.length} sequential payments each way, in alternating blocks of ` +
          `${BLOCK}; a new sandbox card (walletPayIsDefault) for each, ` +
          'the customer confirming in the sandbox app as soon as the invoice exists. Both ways include that ' +
          'confirm and the webhook.',
        `Load: ${TILLS} tills (one connection each) started a payment at once and ${TILLS - lost} succeeded ` +
          `within ${loadMs.toFixed(0)} ms; ` +
          `sandbox: ${missingInSandbox} without a succeeded transaction, ${doubledInSandbox} with more than one; ` +
          `tills told succeeded twice: ${toldTwice}.` +
          `${firstError ? ` First failure: ${firstError.message}` : ''}`,
        `Probe: one more till, its own process, one barcode.verify at a time (a fresh card each): ` +
          `${idleBefore.length} calls in ${IDLE_MS} ms idle before, ` +
          `${loaded.length} during the load, ${idleAfter.length} in ${IDLE_MS} ms idle after (idle p99 before ` +
          `${quantile(idleBefore, 0.99).toFixed(2)} ms, after ${quantile(idleAfter, 0.99).toFixed(2)} ms).`,
      ],
    };
    return [{ group, results }];
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}

/** Runs the group on its own: `npx tsx bench/tills.bench.ts`. */
if (import.meta.url === `file://${process.argv[1]}`) {
  const { report } = await import('./harness.js');
  for (const { group, results } of await tillsGroups()) report(group, results);
}
