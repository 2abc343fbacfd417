import { createHmac } from 'node:crypto';
import { flattenedVerify } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { demoConfig } from '../../../src/demo.js';
import { createVerifier } from '../../../src/entries/index.js';
import { ConfigError } from '../../../src/errors.js';
import { createPayClient, PayError, type PayClientEvent } from '../../../src/entries/pay.js';
import { startFakePayServer } from './fake-pay-server.js';
import { withRequestId } from '../../../src/log/index.js';

const verifier = createVerifier({ ...demoConfig.verifier, backend: 'wasm' });
const tokenKey = createHmac('sha256', Buffer.from(demoConfig.verifier.key, 'hex')).update('token').digest();
const items = [{ name: 'Молоко 1 л', article: 'MILK-1', quantity: 2, price: 8_990 }];
const checkout = { requestId: 'req-1', cardSession: 'AB12CD34', items, discountAmount: 980, totalAmount: 17_000 };
const state = {
  transactionId: 'trx-1',
  requestId: 'req-1',
  status: 'created',
  statusClass: 'transit',
  totalAmount: 17_000,
  refundedAmount: 0,
  updatedAt: '2026-11-23T10:00:00Z',
};

let fake: Awaited<ReturnType<typeof startFakePayServer>>;
let delays: number[];
const sleep = async (ms: number) => void delays.push(ms);

beforeAll(async () => {
  fake = await startFakePayServer();
});
afterAll(async () => {
  await fake.close();
  await verifier.close();
});
beforeEach(() => {
  fake.received.length = 0;
  delays = [];
});

function client(extra: Partial<Parameters<typeof createPayClient>[0]> = {}) {
  return createPayClient({ baseUrl: fake.url, verifier, sleep, random: () => 0.5, ...extra });
}

async function verifyToken(token: string, body: Buffer) {
  const [protectedHeader, , signature] = token.split('.');
  return flattenedVerify({ protected: protectedHeader!, payload: body, signature: signature! }, tokenKey);
}

describe('createPayClient', () => {
  it('sends exactly the signed bytes, with the token a JOSE library accepts', async () => {
    fake.script('/checkout', { status: 200, body: { transactionId: 'trx-1', requestId: 'req-1', status: 'created' } });
    const answer = await client().checkout(checkout);
    expect(answer).toEqual({ transactionId: 'trx-1', requestId: 'req-1', status: 'created' });
    const [sent] = fake.received;
    expect(sent!.path).toBe('/checkout');
    expect(sent!.headers['content-type']).toBe('application/json');
    const verified = await verifyToken(String(sent!.headers['x-wallet-token']), sent!.body);
    expect(verified.protectedHeader).toMatchObject({ alg: 'HS256', b64: false, kid: 'demo-partner' });
    // Only what the caller gave (no default measure), in the contract's order.
    expect(sent!.body.toString('utf8')).toBe(
      JSON.stringify({
        requestId: 'req-1',
        cardSession: 'AB12CD34',
        items: [{ name: items[0]!.name, article: 'MILK-1', quantity: 2, price: 8_990 }],
        discountAmount: 980,
        totalAmount: 17_000,
      }),
    );
  });

  it('uses a token function, sync or async, instead of a verifier', async () => {
    const seen: string[] = [];
    fake.script('/status', { status: 200, body: state });
    const pay = createPayClient({
      baseUrl: fake.url,
      token: async (text) => {
        seen.push(text);
        return verifier.getToken(text);
      },
    });
    await pay.status({ transactionId: 'trx-1' });
    expect(seen).toEqual(['{"transactionId":"trx-1"}']);
    expect(fake.received[0]!.body.toString()).toBe(seen[0]);
  });

  it('refuses a body against the contract before sending, naming each field', async () => {
    const error = await client()
      .checkout({ ...checkout, items: [], extra: 1 } as never)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayError);
    expect(error).toMatchObject({ code: 'BAD_REQUEST', httpStatus: undefined, attempts: 0 });
    expect((error as PayError).errors).toEqual(
      expect.arrayContaining(['items: must list at least one item', 'extra: unknown field']),
    );
    expect(fake.received).toHaveLength(0);
  });

  it('checks the amounts rule itself and sends nothing when it fails', async () => {
    const error = await client()
      .checkout({ ...checkout, totalAmount: 17_001 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'AMOUNT_MISMATCH', httpStatus: undefined });
    expect((error as PayError).errors[0]).toMatch(
      /^totalAmount: must equal the purchase amount 17980 minus discountAmount 980/,
    );
    await expect(
      client().availabilityTask({
        requestId: 'r',
        cardSession: 'AB12CD34',
        items,
        discountAmount: 20_000,
        totalAmount: 0,
      }),
    ).rejects.toMatchObject({ code: 'AMOUNT_MISMATCH' });
    expect(fake.received).toHaveLength(0);
  });

  it(
    'retries /checkout on 5xx and no answer with the same bytes, a fresh ' + 'token each time, and jittered backoff',
    async () => {
      fake.script(
        '/checkout',
        { status: 503, body: { status: 'UNAVAILABLE', errors: ['try later'] } },
        { destroy: true },
        { status: 200, body: { transactionId: 'trx-1', requestId: 'req-1', status: 'created' } },
      );
      const answer = await client().checkout(checkout);
      expect(answer.transactionId).toBe('trx-1');
      expect(fake.received).toHaveLength(3);
      const bodies = new Set(fake.received.map((r) => r.body.toString('hex')));
      expect(bodies.size).toBe(1);
      const tokens = new Set(fake.received.map((r) => r.headers['x-wallet-token']));
      expect(tokens.size).toBe(3);
      for (const r of fake.received) await verifyToken(String(r.headers['x-wallet-token']), r.body);
      expect(delays).toEqual([75, 150]); // equal jitter at random 0.5: 3/4 of 100, then of 200
    },
  );

  it('gives up after retries.max with a typed error carrying the status, errors and request id', async () => {
    fake.script(
      '/status',
      ...Array.from({ length: 3 }, () => ({ status: 502, body: { status: 'BAD_GATEWAY', errors: ['upstream'] } })),
    );
    const error = (await client({ retries: { max: 2 } })
      .status({ transactionId: 'trx-1' })
      .catch((e: unknown) => e)) as PayError;
    expect(error).toMatchObject({
      code: 'PAY_SERVER',
      httpStatus: 502,
      serverCode: 'BAD_GATEWAY',
      errors: ['upstream'],
      attempts: 3,
      path: '/status',
      requestId: 'srv-3',
    });
    expect(error.transient).toBe(true);
  });

  it('never retries /cancel, /availability-info/task or /receipt, nor any 4xx', async () => {
    fake.script('/cancel', { status: 503, body: { status: 'UNAVAILABLE', errors: [] } });
    await expect(client().cancel({ transactionId: 'trx-1' })).rejects.toMatchObject({
      code: 'PAY_SERVER',
      attempts: 1,
    });
    fake.script('/checkout', {
      status: 409,
      body: { status: 'CARD_SESSION_INVALID', errors: ['cardSession: expired'] },
    });
    await expect(client().checkout(checkout)).rejects.toMatchObject({
      code: 'CARD_SESSION_INVALID',
      httpStatus: 409,
      errors: ['cardSession: expired'],
      attempts: 1,
    });
    fake.script('/receipt', { destroy: true });
    await expect(client().receipt({ transactionId: 'trx-1', receipt: { total: 1 } })).rejects.toMatchObject({
      code: 'PAY_NETWORK',
      attempts: 1,
    });
    expect(fake.received).toHaveLength(3);
  });

  it(
    'maps each Pay error code of the envelope, and an unmapped one to ' + "REFUSED keeping the service's code",
    async () => {
      const cases = [
        [401, 'TOKEN_INVALID', 'TOKEN_INVALID'],
        [404, 'NOT_FOUND', 'NOT_FOUND'],
        [409, 'IDEMPOTENCY_CONFLICT', 'IDEMPOTENCY_CONFLICT'],
        [409, 'INVALID_STATE', 'INVALID_STATE'],
        [422, 'AMOUNT_MISMATCH', 'AMOUNT_MISMATCH'],
        [413, 'PAYLOAD_TOO_LARGE', 'PAY_REFUSED'],
        [418, 'TEAPOT', 'PAY_REFUSED'],
      ] as const;
      for (const [httpStatus, serverCode, code] of cases) {
        fake.script('/refund', { status: httpStatus, body: { status: serverCode, errors: [`x: ${serverCode}`] } });
        await expect(client().refund({ transactionId: 'trx-1', refundId: 'ref-1' })).rejects.toMatchObject({
          code,
          httpStatus,
          serverCode,
        });
      }
    },
  );

  it("answers PROTOCOL when a 2xx is not JSON or not the contract's shape", async () => {
    fake.script('/status', { status: 200, body: '<html>' }, { status: 200, body: { ...state, status: 42 } });
    await expect(client().status({ transactionId: 'trx-1' })).rejects.toMatchObject({
      code: 'PAY_PROTOCOL',
      httpStatus: 200,
    });
    const error = (await client()
      .status({ transactionId: 'trx-1' })
      .catch((e: unknown) => e)) as PayError;
    expect(error.code).toBe('PAY_PROTOCOL');
    expect(error.errors[0]).toMatch(/^status: /);
  });

  it('times out each attempt after timeoutMs and retries a safe call', async () => {
    fake.script('/status', { hang: true }, { status: 200, body: state });
    const started = performance.now();
    expect(await client({ timeoutMs: 100 }).status({ transactionId: 'trx-1' })).toEqual(state);
    expect(performance.now() - started).toBeGreaterThanOrEqual(95);
    fake.script('/cancel', { hang: true });
    await expect(client({ timeoutMs: 50 }).cancel({ transactionId: 'trx-1' })).rejects.toMatchObject({
      code: 'PAY_TIMEOUT',
      attempts: 1,
    });
  });

  it('reports a refused connection as NETWORK', async () => {
    const closed = await startFakePayServer();
    const url = closed.url;
    await closed.close();
    await expect(
      createPayClient({ baseUrl: url, verifier, retries: false }).status({ transactionId: 'trx-1' }),
    ).rejects.toMatchObject({ code: 'PAY_NETWORK', httpStatus: undefined, attempts: 1 });
  });

  it('honours Retry-After up to retries.maxMs', async () => {
    fake.script(
      '/status',
      { status: 503, body: { status: 'UNAVAILABLE', errors: [] }, headers: { 'retry-after': '1' } },
      { status: 200, body: state },
    );
    await client({ retries: { maxMs: 800 } }).status({ transactionId: 'trx-1' });
    expect(delays).toEqual([800]);
  });

  it("stops when the caller aborts, with the signal's reason and no retry", async () => {
    fake.script('/status', { hang: true });
    const controller = new AbortController();
    const call = client().status({ transactionId: 'trx-1' }, { signal: controller.signal });
    while (fake.received.length === 0) await new Promise((resolve) => setTimeout(resolve, 5)); // the request is out
    controller.abort(new Error('operator left'));
    await expect(call).rejects.toThrow('operator left');
    expect(fake.received).toHaveLength(1);
  });

  it('reports request, response and failure events with timings, and survives a throwing listener', async () => {
    const events: PayClientEvent[] = [];
    fake.script(
      '/checkout',
      { status: 500, body: { status: 'INTERNAL', errors: [] } },
      { status: 200, body: { transactionId: 'trx-1', requestId: 'req-1', status: 'created' } },
    );
    await client({
      onEvent: (e) => {
        events.push(e);
        throw new Error('listener bug');
      },
    }).checkout(checkout);
    expect(events.map((e) => `${e.type}#${e.attempt}`)).toEqual([
      'request#1',
      'response#1',
      'failure#1',
      'request#2',
      'response#2',
    ]);
    const failure = events[2] as Extract<PayClientEvent, { type: 'failure' }>;
    expect(failure).toMatchObject({ operation: 'checkout', path: '/checkout', retryInMs: 75 });
    expect(failure.error.code).toBe('PAY_SERVER');
    expect(failure.httpRequestId).toBe(events[0]!.httpRequestId);
    expect(fake.received[0]!.headers['x-request-id']).toBe(events[0]!.httpRequestId);
    const response = events[4] as Extract<PayClientEvent, { type: 'response' }>;
    expect(response.durationMs).toBeGreaterThan(0);
    expect(response.requestId).toMatch(/^srv-\d+$/); // the answer's x-request-id, set by the server
    expect(fake.received[1]!.headers['x-request-id']).toBe(events[3]!.httpRequestId);
    expect(JSON.stringify(events)).not.toContain('AB12CD34'); // no bodies in events
  });

  it(
    'sends the current request id (withRequestId) on every attempt, so the ' + "Pay API logs the till's request",
    async () => {
      fake.script(
        '/checkout',
        { status: 500, body: { status: 'INTERNAL', errors: [] } },
        { status: 200, body: { transactionId: 'trx-1', requestId: 'req-1', status: 'created' } },
      );
      await withRequestId('till-7-000123', () => client().checkout(checkout));
      expect(fake.received.map((r) => r.headers['x-request-id'])).toEqual(['till-7-000123', 'till-7-000123']);
    },
  );

  it('names every bad option at once', () => {
    expect(() => createPayClient({ baseUrl: 'ftp://x', timeoutMs: 0 } as never)).toThrow(ConfigError);
    let error: unknown;
    try {
      createPayClient({ baseUrl: 'ftp://x', timeoutMs: 0, retries: { max: 99 }, verifier, token: () => 't' });
    } catch (caught) {
      error = caught;
    }
    expect((error as ConfigError).issues).toEqual(
      expect.arrayContaining([
        'baseUrl: must be an http(s) URL',
        expect.stringMatching(/^timeoutMs: /),
        'retries.max: must be an integer from 0 to 10',
        'verifier: give verifier or sign, exactly one',
      ]),
    );
  });
});
