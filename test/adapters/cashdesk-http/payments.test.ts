import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionUpdate } from '../../../src/contracts/cashdesk-payments.js';
import { BASKET, startPayServer, TILL_KEY, TOTAL, type PayServer } from '../../support/pay-server.js';
import { paySandboxCases, type PaySandbox } from '../../src/pay/sandbox-harness.js';
import { hugeBody } from '../../support/attacks.js';
import { startServer, type TestServer, TILL_KEY as HTTP_TILL_KEY } from './client.js';
import { testClock } from '../../support/clock.js';

const [pglite] = paySandboxCases('HTTP payments');

/** Reads `pay.sessionUpdated` server-sent events as they come. */
class EventStream {
  readonly updates: SessionUpdate[] = [];
  readonly #abort = new AbortController();
  #buffer = '';
  #wake: (() => void) | undefined;

  static async open(url: string): Promise<EventStream> {
    const stream = new EventStream();
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${TILL_KEY}` },
      signal: stream.#abort.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    void stream.#read(response.body!.getReader());
    return stream;
  }

  async until(match: (u: SessionUpdate) => boolean): Promise<SessionUpdate> {
    for (;;) {
      const found = this.updates.find(match);
      if (found) return found;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  close() {
    this.#abort.abort();
  }

  async #read(reader: ReadableStreamDefaultReader<Uint8Array>) {
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        this.#buffer += decoder.decode(value, { stream: true });
        for (let end = this.#buffer.indexOf('\n\n'); end >= 0; end = this.#buffer.indexOf('\n\n')) {
          const block = this.#buffer.slice(0, end);
          this.#buffer = this.#buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event === 'pay.sessionUpdated' && data) this.updates.push(JSON.parse(data) as SessionUpdate);
          this.#wake?.();
        }
      }
    } catch {
      // aborted
    }
  }
}

describe('HTTP /v1/payments', () => {
  const clock = testClock('wall');
  let sb: PaySandbox;
  let pay: PayServer;
  const call = async (method: string, path: string, body?: unknown, key = TILL_KEY) => {
    const response = await fetch(pay.server.url + path, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  beforeAll(async () => {
    sb = await pglite!.start(clock.now);
    pay = await startPayServer(sb, { webhook: true, clock });
  }, 120_000);
  afterAll(async () => {
    await pay?.close();
    await sb?.close();
  });

  it('runs the main flow over HTTP with the updates as server-sent events', async () => {
    const card = await pay.sim.issueCard({ walletPayIsDefault: false });
    const started = await call('POST', '/v1/payments', {
      fullBarcode: card.barcode,
      basket: BASKET,
      paymentId: 'http-1',
    });
    expect(started).toMatchObject({ status: 200, body: { paymentId: 'http-1', phase: 'offered', totalAmount: TOTAL } });
    const events = await EventStream.open(`${pay.server.url}/v1/payments/http-1/events`);
    try {
      expect(await events.until(() => true)).toMatchObject({ paymentId: 'http-1', phase: 'offered' });
      const checkedOut = await call('POST', '/v1/payments/http-1/checkout');
      expect(checkedOut).toMatchObject({ status: 200, body: { phase: 'pending', status: 'created' } });
      await pay.sim.confirm(checkedOut.body.transactionId);
      expect(await events.until((u) => u.phase === 'succeeded')).toMatchObject({
        status: 'succeeded',
        transactionId: checkedOut.body.transactionId,
      });
      expect(await call('GET', '/v1/payments/http-1')).toMatchObject({ status: 200, body: { phase: 'succeeded' } });
      expect(await call('POST', '/v1/payments/http-1/receipt', { receipt: { total: TOTAL } })).toMatchObject({
        status: 200,
        body: { receiptSent: true },
      });
      expect(await call('POST', '/v1/payments/http-1/refund', { refundId: 'rf-1', amount: 1_000 })).toMatchObject({
        status: 200,
        body: { phase: 'succeeded', refundedAmount: 1_000 },
      });
      await events.until((u) => u.event === 'rescanNeeded');
      expect(await call('POST', '/v1/payments/http-1/refund', { refundId: 'rf-2' })).toMatchObject({
        status: 200,
        body: { phase: 'refunded', refundedAmount: TOTAL },
      });
      expect((await call('GET', '/v1/payments/http-1')).body.transactions).toEqual([
        expect.objectContaining({ transactionId: checkedOut.body.transactionId, current: true, refundedAmount: TOTAL }),
      ]);
    } finally {
      events.close();
    }
    expect((await call('GET', '/v1/payments?phase=refunded')).body.payments).toEqual([
      expect.objectContaining({ paymentId: 'http-1' }),
    ]);
  });

  it('answers refusals in the envelope with the stable code, and needs the till key', async () => {
    expect(await call('GET', '/v1/payments/nope')).toMatchObject({
      status: 404,
      body: { status: 'PAYMENT_NOT_FOUND', errors: ['paymentId: no such payment for this till'] },
    });
    expect((await call('GET', '/v1/payments/nope', undefined, 'wrong-key-0123456789')).status).toBe(401);
    expect(await call('POST', '/v1/payments', { basket: BASKET })).toMatchObject({
      status: 400,
      body: { status: 'BAD_REQUEST', errors: ['fullBarcode: give fullBarcode or cardSession, exactly one'] },
    });
    const card = await pay.sim.issueCard({ walletPayIsDefault: false });
    await call('POST', '/v1/payments', { fullBarcode: card.barcode, basket: BASKET, paymentId: 'http-2' });
    expect(await call('POST', '/v1/payments/http-2/cancel')).toMatchObject({
      status: 409,
      body: { status: 'SESSION_STATE' },
    });
    const document = (await (await fetch(`${pay.server.url}/openapi.json`)).json()) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/v1/payments',
        '/v1/payments/{paymentId}',
        '/v1/payments/{paymentId}/events',
        '/v1/payments/{paymentId}/refund',
      ]),
    );
  });

  // Hostile input (attacks on the payment routes): a deep receipt died in the payments thread's
  // structured clone (a 500 with a stack in the log); the webhook read any body whole, unauthenticated.
  it(
    'refuses a body or a receipt nested deeper than 64 levels, and a receipt with control characters, 400 naming ' +
      'the field',
    async () => {
      const post = async (path: string, text: string) => {
        const response = await fetch(pay.server.url + path, {
          method: 'POST',
          headers: { authorization: `Bearer ${TILL_KEY}`, 'content-type': 'application/json' },
          body: text,
        });
        return { status: response.status, body: (await response.json()) as any };
      };
      const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
      for (const depth of [100_000, 5_000]) {
        expect(await post('/v1/payments/nope/receipt', `{"receipt":{"a":${deep(depth)}}}`)).toMatchObject({
          status: 400,
          body: { status: 'BAD_REQUEST', errors: ['body: nesting deeper than 64 levels'] },
        });
      }
      // 64 levels in all is within the bound: refused only for the payment it names.
      expect(await post('/v1/payments/nope/receipt', `{"receipt":{"a":${deep(62)}}}`)).toMatchObject({
        status: 404,
        body: { status: 'PAYMENT_NOT_FOUND' },
      });
      expect(
        await post('/v1/payments/nope/receipt', JSON.stringify({ receipt: { lines: [{ name: 'Cof\u0000fee' }] } })),
      ).toMatchObject({
        status: 400,
        body: { status: 'BAD_REQUEST', errors: ['receipt.lines.0.name: must not contain control characters'] },
      });
      expect(await post('/v1/payments', `{"basket":${deep(100_000)}}`)).toMatchObject({
        status: 400,
        body: { status: 'BAD_REQUEST', errors: ['body: nesting deeper than 64 levels'] },
      });
    },
  );

  // A till's event streams are held open for as long as it likes; without a cap one till key could hold every
  // connection the server allows, as the bridge's per-till cap (16) prevents for WebSocket connections.
  it(
    'refuses a till a 17th open event stream with 429 and Retry-After, and takes ' +
      'one again once a stream has closed',
    async () => {
      const card = await pay.sim.issueCard({ walletPayIsDefault: false });
      await call('POST', '/v1/payments', { fullBarcode: card.barcode, basket: BASKET, paymentId: 'http-streams' });
      const url = `${pay.server.url}/v1/payments/http-streams/events`;
      // A refused stream holds no slot.
      for (let i = 0; i < 20; i++) expect((await call('GET', '/v1/payments/nope/events')).status).toBe(404);
      const streams = await Promise.all(Array.from({ length: 16 }, () => EventStream.open(url)));
      try {
        const over = await fetch(url, { headers: { authorization: `Bearer ${TILL_KEY}` } });
        expect(over.status).toBe(429);
        expect(over.headers.get('retry-after')).toBe('1');
        expect(await over.json()).toMatchObject({
          status: 'TOO_MANY_REQUESTS',
          errors: ['events: at most 16 open event streams per till'],
        });
        streams.pop()!.close();
        // The server frees the slot when it sees the stream end: asked again until it has (each try a request, not a
        // timer).
        let status = 0;
        for (let attempt = 0; attempt < 200 && status !== 200; attempt++) {
          const again = await fetch(url, { headers: { authorization: `Bearer ${TILL_KEY}` } });
          status = again.status;
          await again.body?.cancel();
        }
        expect(status).toBe(200);
      } finally {
        for (const stream of streams) stream.close();
      }
    },
  );

  it('refuses a Pay webhook body over the body limit with 413 before it is read, chunked or declared', async () => {
    const declared = 64 * 1024 * 1024;
    const chunked = await hugeBody(pay.server.url, '/webhooks/pay', {}, declared, { chunked: true });
    expect(chunked.statusLine).toMatch(/^HTTP\/1\.1 413 /);
    expect(chunked.received).toContain('PAYLOAD_TOO_LARGE');
    expect(chunked.sentBeforeAnswer).toBeLessThan(declared / 4);
    const sized = await hugeBody(pay.server.url, '/webhooks/pay', {}, declared);
    expect(sized.statusLine).toMatch(/^HTTP\/1\.1 413 /);
    expect(sized.sentBeforeAnswer).toBeLessThan(declared / 4);
  });

  it(
    'answers a wrong method on the payment routes 405 with Allow, before asking for a till key, and counts it by ' +
      'route',
    async () => {
      const wrong = async (method: string, path: string) => {
        const response = await fetch(pay.server.url + path, { method });
        return {
          status: response.status,
          allow: response.headers.get('allow'),
          body: method === 'HEAD' ? undefined : await response.json(),
        };
      };
      expect(await wrong('DELETE', '/v1/payments')).toMatchObject({
        status: 405,
        allow: 'GET, HEAD, POST',
        body: { status: 'METHOD_NOT_ALLOWED', errors: ['method: must be GET or HEAD or POST'] },
      });
      expect(await wrong('PUT', '/v1/payments/sale-9')).toMatchObject({ status: 405, allow: 'GET, HEAD' });
      expect(await wrong('GET', '/v1/payments/sale-9/refund')).toMatchObject({
        status: 405,
        allow: 'POST',
        body: { status: 'METHOD_NOT_ALLOWED' },
      });
      expect(await wrong('POST', '/v1/payments/sale-9/events')).toMatchObject({ status: 405, allow: 'GET, HEAD' });
      expect(await wrong('HEAD', '/v1/payments/sale-9/checkout')).toEqual({
        status: 405,
        allow: 'POST',
        body: undefined,
      });
      expect(await wrong('GET', '/webhooks/pay')).toMatchObject({ status: 405, allow: 'POST' });
      // Unknown paths stay 404, and no series is made per paymentId.
      expect((await wrong('POST', '/v1/payments/sale-9/teleport')).status).toBe(404);
      const metrics = await (await fetch(`${pay.server.url}/metrics`)).text();
      expect(metrics).toContain('wpk_http_requests_total{route="/v1/payments/{paymentId}/refund",status="405"} 1');
      expect(metrics).not.toContain('sale-9');
    },
  );
});

describe('HTTP /v1/payments, the body media type', () => {
  // As the raw POST routes do (415 before or after reading): the payment routes parsed any body as JSON, so a
  // text/plain or form body, the kind a browser page may send to another origin without asking, was taken.
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  const post = async (path: string, body: string | undefined, contentType: string | undefined) => {
    const response = await fetch(server.url + path, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${HTTP_TILL_KEY}`,
        ...(contentType === undefined ? {} : { 'content-type': contentType }),
      },
      ...(body === undefined ? {} : { body }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const basket = JSON.stringify({ basket: BASKET });

  it.each([
    ['text/plain', '/v1/payments/sale-1/basket', basket],
    ['application/x-www-form-urlencoded', '/v1/payments/sale-1/basket', basket],
    ['multipart/form-data; boundary=x', '/v1/payments', JSON.stringify({ cardSession: 'AB12CD34', basket: BASKET })],
    [undefined, '/v1/payments/sale-1/basket', basket],
    [undefined, '/v1/payments/sale-1/checkout', '{}'],
  ])('refuses a body sent as %s with 415 in the envelope', async (contentType, path, body) => {
    expect(await post(path, body, contentType)).toMatchObject({
      status: 415,
      body: { status: 'UNSUPPORTED_MEDIA_TYPE', errors: ['Content-Type: must be application/json'] },
    });
  });

  it(
    'takes JSON (application/json, +json, with parameters), and a ' + 'bodiless intent without a Content-Type',
    async () => {
      // No Pay API on this server: past the body checks, every call is refused PAY_NOT_CONFIGURED.
      for (const contentType of [
        'application/json',
        'application/json; charset=utf-8',
        'application/merge-patch+json',
      ]) {
        expect(await post('/v1/payments/sale-1/basket', basket, contentType)).toMatchObject({
          status: 503,
          body: { status: 'PAY_NOT_CONFIGURED' },
        });
      }
      expect(await post('/v1/payments/sale-1/checkout', undefined, undefined)).toMatchObject({
        status: 503,
        body: { status: 'PAY_NOT_CONFIGURED' },
      });
    },
  );
});
