import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { openDatabase } from '../src/db/index.js';
import { demoConfig } from '../src/demo.js';
import { createVerifier } from '../src/entries/index.js';
import type { BenchGroup, Measured } from './harness.js';
import { pinLoadToCore1, startBenchServer } from './load.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 5);
const CONNECTIONS = 32;
const CARDS = 64;

interface Sequence {
  setupRequest(request: Record<string, unknown>, context: Record<string, unknown>): Record<string, unknown>;
  onResponse?(status: number, body: string, context: Record<string, unknown>): void;
}
type Run = (
  options: Record<string, unknown>,
) => Promise<{ requests: { average: number }; non2xx: number; errors: number }>;

/**
 * One connection's loop: a signed /checkout of a 3-item basket with a new
 * requestId on one of CARDS card sessions (each also supersedes that card's
 * previous invoice), then a signed /status of the transaction it created.
 */
function checkoutThenStatus(sessions: string[]): Sequence[] {
  const verifier = createVerifier({ ...demoConfig.verifier, replay: false });
  let n = 0;
  const items = [
    { name: 'Milk 3.2%', article: 'A-1', quantity: 2, price: 8990 },
    { name: 'Bread', article: 'B-2', quantity: 1, price: 4500 },
    { name: 'Cheese', article: 'C-3', measure: 'GRAM', quantity: 350, price: 12 },
  ];
  const total = 2 * 8990 + 4500 + 350 * 12 - 1000;
  const signed = (body: string) => ({ 'content-type': 'application/json', 'x-wallet-token': verifier.getToken(body) });
  return [
    {
      setupRequest(request) {
        n++;
        const body = JSON.stringify({
          requestId: `bench-${n}-${randomBytes(4).toString('hex')}`,
          cardSession: sessions[n % sessions.length],
          items,
          discountAmount: 1000,
          totalAmount: total,
        });
        return { ...request, method: 'POST', path: '/checkout', body, headers: signed(body) };
      },
      onResponse(status, body, context) {
        if (status === 200) context.transactionId = (JSON.parse(body) as { transactionId: string }).transactionId;
      },
    },
    {
      setupRequest(request, context) {
        const body = JSON.stringify({ transactionId: context.transactionId ?? 'trx_none' });
        return { ...request, method: 'POST', path: '/status', body, headers: signed(body) };
      },
    },
  ];
}

async function measureSandbox(name: string, url: string): Promise<Measured> {
  const sessions: string[] = [];
  for (let i = 0; i < CARDS; i++) {
    const res = await fetch(`${url}/sandbox/cards`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    sessions.push(((await res.json()) as { cardSession: string }).cardSession);
  }
  // One unrecorded round first: JIT, PGlite's and PostgreSQL's caches and plans warm up.
  await (autocannon as unknown as Run)({
    url,
    connections: CONNECTIONS,
    duration: Math.min(2, SECONDS),
    requests: checkoutThenStatus(sessions),
  });
  const rates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const result = await (autocannon as unknown as Run)({
      url,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: checkoutThenStatus(sessions),
    });
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    rates.push(result.requests.average);
  }
  const mean = rates.reduce((a, b) => a + b, 0) / rates.length;
  const sd = Math.sqrt(rates.reduce((a, r) => a + (r - mean) ** 2, 0) / Math.max(1, rates.length - 1));
  return { name, hz: mean, rme: (sd / mean) * 100, samples: rates.length };
}

/**
 * The sandbox Pay service's checkout + status throughput on its two
 * databases, in one run: PGlite in the sandbox's process (one connection) and
 * the PostgreSQL server of DATABASE_URL (a pool of 10). Sandbox on core 0,
 * autocannon on core 1.
 */
export async function sandboxPayGroups(): Promise<Array<{ group: BenchGroup; results: Map<string, Measured> }>> {
  const databaseUrl = process.env.DATABASE_URL;
  const pglite = 'sandbox Pay on PGlite: checkout + status';
  const postgres = 'sandbox Pay on PostgreSQL: checkout + status';
  const results = new Map<string, Measured>();
  const unpin = pinLoadToCore1();
  try {
    const run = async (name: string, env: Record<string, string>) => {
      Object.assign(process.env, env);
      const server = await startBenchServer('sandbox-pay.ts');
      try {
        results.set(name, await measureSandbox(name, `http://127.0.0.1:${server.port}`));
      } finally {
        server.stop();
        for (const key of Object.keys(env)) delete process.env[key];
      }
    };
    await run(pglite, {});
    if (databaseUrl) {
      const schema = `bench_pay_${randomBytes(4).toString('hex')}`;
      try {
        await run(postgres, { WPK_BENCH_DATABASE_URL: databaseUrl, WPK_BENCH_SCHEMA: schema });
      } finally {
        const db = await openDatabase({ url: databaseUrl });
        await db.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => db.close());
      }
    }
  } finally {
    unpin();
  }
  const group: BenchGroup = {
    title:
      `Sandbox Pay: requests/s, signed /checkout then /status per connection (${CONNECTIONS} connections, ${CARDS} ` +
      `card sessions; sandbox on core 0, load on core 1)`,
    cases: [],
    // A pool of connections on a server should serve concurrent checkouts at least as fast as one in-process
    // connection.
    ratios: results.has(postgres)
      ? [{ label: 'PostgreSQL vs PGlite', subject: postgres, baseline: pglite, target: 1 }]
      : [],
    notes: [
      "Every checkout is a new transaction (unique requestId) that also supersedes its card session's previous " +
        'invoice, a token jti insert and a session lock; every status is a signed read. The PostgreSQL server runs ' +
        'on the same 2-core machine, competing with the sandbox for core 0/1.',
      ...(results.has(postgres) ? [] : ['DATABASE_URL is not set: PostgreSQL not measured.']),
    ],
  };
  return [{ group, results }];
}

/** Runs the group on its own: `npx tsx bench/sandbox-pay.bench.ts`. */
if (import.meta.url === `file://${process.argv[1]}`) {
  const { report } = await import('./harness.js');
  for (const { group, results } of await sandboxPayGroups()) {
    report(group, results);
    for (const r of results.values())
      console.log(`${r.name}: ${r.hz.toFixed(0)} requests/s (±${r.rme.toFixed(1)}%, ${r.samples} rounds)`);
  }
}
