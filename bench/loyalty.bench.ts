import { Hono } from 'hono';
import { openDatabase } from '../src/db/index.js';
import { demoConfig } from '../src/demo.js';
import { createApiApp } from '../adapters/http-server/index.js';
import { basicAuthHeader } from '../src/net/basic-auth.js';
import { createLoyaltyServer, formatReceiptQr, parseReceiptQr, type LoyaltyHandlers } from '../src/entries/loyalty.js';
import { ReceiptQrRequest, ReceiptQrResponse } from '../src/contracts/loyalty/bodies.js';
import { createLoyaltyProgram } from '../src/loyalty-program/program.js';
import { receiptTimeOf } from '../src/contracts/loyalty/receipt-qr.js';
import type { BenchGroup, Measured } from './harness.js';

const SECONDS = Number(process.env.BENCH_MAX_TIME ?? 3);
const ROUNDS = 3;
const CONCURRENCY = 16;

/** Calls `op` with CONCURRENCY in flight for SECONDS, ROUNDS times; operations per second. */
async function rate(name: string, op: (i: number) => Promise<void>): Promise<Measured> {
  const rates: number[] = [];
  let next = 0;
  // Round 0 warms up (JIT, first-use allocations) and is not counted.
  for (let round = 0; round <= ROUNDS; round++) {
    let done = 0;
    const until = performance.now() + SECONDS * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < until) {
          await op(next++);
          done++;
        }
      }),
    );
    if (round > 0) rates.push(done / ((performance.now() - started) / 1000));
  }
  const mean = rates.reduce((a, b) => a + b, 0) / rates.length;
  const sd = Math.sqrt(rates.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, rates.length - 1));
  return { name, hz: mean, rme: (100 * sd) / mean, samples: rates.length };
}

let fiscal = 0;
function qr(): string {
  fiscal += 1;
  return formatReceiptQr({
    time: receiptTimeOf(Date.now() - 60_000),
    sum: 123_456,
    fiscalDriveNumber: '9289000100242345',
    documentNumber: fiscal,
    fiscalSign: String(fiscal),
    operationType: 1,
  });
}

const answer: ReceiptQrResponse = { result: 'ACCEPTED', bonusAmount: 1234 };
const memoryHandlers = { sendReceiptQr: async () => answer } as unknown as LoyaltyHandlers;

/**
 * The Loyalty server framework's cost per call (Basic auth, zod validation, the QR
 * parse, the answer checked against the contract, request ids) against a bare Hono
 * route doing only JSON in, the QR parse and JSON out around the same handler; and
 * the default implementation's receipt and card rates on PGlite. In process, through
 * `app.fetch`, so the figures are the server's work without sockets.
 */
export async function loyaltyGroups(): Promise<Array<{ group: BenchGroup; results: Map<string, Measured> }>> {
  const credentials = { login: 'wallet', password: 'wallet-password-1' };
  const headers = {
    authorization: basicAuthHeader(credentials.login, credentials.password),
    'content-type': 'application/json',
  };
  const framework = createLoyaltyServer({ handlers: memoryHandlers, auth: credentials });
  const bare = new Hono();
  bare.post('/v1/promo/qrCode', async (c) => {
    const body = await c.req.json<{ cardNumber: string; qrCode: string }>();
    parseReceiptQr(body.qrCode);
    return c.json(
      await memoryHandlers.sendReceiptQr({ cardNumber: body.cardNumber, qrCode: body.qrCode } as never, {
        requestId: '',
        login: '',
      }),
    );
  });
  // The kit's shared API app with the same request and answer schemas, but no auth and no framework around the handler.
  const shared = createApiApp();
  shared.post('/v1/promo/qrCode', async (c) => {
    const body = ReceiptQrRequest.parse(await c.req.json());
    parseReceiptQr(body.qrCode);
    return c.json(
      ReceiptQrResponse.parse(await memoryHandlers.sendReceiptQr({ ...body } as never, { requestId: '', login: '' })),
    );
  });
  const post =
    (app: { fetch: (r: Request) => Response | Promise<Response> }, path: string, body: unknown) => async () => {
      const res = await app.fetch(
        new Request(`http://bench${path}`, { method: 'POST', headers, body: JSON.stringify(body) }),
      );
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    };
  const body = { cardNumber: '2990000000000001', qrCode: qr() };
  const results = new Map<string, Measured>();
  const add = (m: Measured) => results.set(m.name, m);
  add(await rate('framework POST /v1/promo/qrCode (in-memory handler)', post(framework, '/v1/promo/qrCode', body)));
  add(await rate('bare Hono route, same handler', post(bare, '/v1/promo/qrCode', body)));
  add(await rate('createApiApp route, same schemas, no auth', post(shared, '/v1/promo/qrCode', body)));

  const db = await openDatabase();
  try {
    const program = await createLoyaltyProgram(db, { partnerKey: demoConfig.verifier.key, credentials });
    const card = await program.handlers.issueAnonymousCard({ requestId: 'bench' }, { requestId: '', login: '' });
    add(
      await rate('default implementation: receipt ACCEPTED (PGlite)', async () => {
        await post(program.app, '/v1/promo/qrCode', { cardNumber: card.cardNumber, qrCode: qr() })();
      }),
    );
    add(
      await rate('default implementation: anonymous card issued (PGlite)', async (i) => {
        await post(program.app, '/v1/card/anonymous', { requestId: `bench-${i}` })();
      }),
    );
  } finally {
    await db.close();
  }
  const overhead: BenchGroup = {
    title: 'Loyalty server framework: receipt calls/s in process, 16 in flight',
    cases: [],
    ratios: [
      {
        label: 'framework vs createApiApp route with the same schemas',
        subject: 'framework POST /v1/promo/qrCode (in-memory handler)',
        baseline: 'createApiApp route, same schemas, no auth',
        target: 0.5,
      },
      {
        label: 'framework vs bare Hono route',
        subject: 'framework POST /v1/promo/qrCode (in-memory handler)',
        baseline: 'bare Hono route, same handler',
        target: 0.25,
      },
    ],
    notes: [
      'The bare route does no request id, body limit, auth, schema validation or answer check; the createApiApp ' +
        "route does all but auth and the framework's answer check.",
      "The first ratio is the framework's own cost (Basic auth with hashed constant-time compare, LoyaltyError " +
        'mapping, the answer checked against the contract).',
    ],
  };
  const store: BenchGroup = {
    title: 'Loyalty default implementation on PGlite (in memory): calls/s in process, 16 in flight',
    cases: [],
    ratios: [],
    notes: [
      'PGlite is one connection: every call is serialized through it. PostgreSQL (DATABASE_URL) runs them on a pool.',
    ],
  };
  const pick = (names: string[]) => new Map(names.map((n) => [n, results.get(n)!]));
  return [
    {
      group: overhead,
      results: pick([
        'framework POST /v1/promo/qrCode (in-memory handler)',
        'createApiApp route, same schemas, no auth',
        'bare Hono route, same handler',
      ]),
    },
    {
      group: store,
      results: pick([
        'default implementation: receipt ACCEPTED (PGlite)',
        'default implementation: anonymous card issued (PGlite)',
      ]),
    },
  ];
}
