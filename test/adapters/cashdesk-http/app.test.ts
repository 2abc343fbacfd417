import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHttpApp } from '../../../adapters/cashdesk-http/index.js';
import { CashDeskService } from '../../../src/cashdesk/service.js';
import { TillRegistry } from '../../../src/cashdesk/tills.js';
import { createVerifier } from '../../../src/entries/index.js';
import { ConfigError, StoreError } from '../../../src/errors.js';
import { BASE_CONFIG, NOW } from '../../support/fixtures.js';
import { barcode, CARD, request, startServer, TILL_KEY, type TestServer, type TestVerifier } from './client.js';

const encoder = new TextEncoder();
const UNAUTHORIZED = { status: 'UNAUTHORIZED', errors: ['Invalid authorization token'] };

/** A verifier whose operations fail as given; only for the failure mapping tests. */
function failingVerifier(error: Error): TestVerifier {
  return {
    backend: 'wasm',
    barcodeVerify: () => {
      throw error;
    },
    barcodeVerifyBatch: () => {
      throw error;
    },
    getToken: () => {
      throw error;
    },
    close: async () => {},
  };
}

/** A pino logger writing parsed lines into `lines`. */
function capturingLogger(lines: Array<Record<string, unknown>>) {
  return pino(
    { level: 'info' },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe('POST /v1/barcode/verify', () => {
  it('answers the verification when the barcode is valid', async () => {
    const code = barcode();
    const reply = await request(server.url, '/v1/barcode/verify', { body: { fullBarcode: code } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(reply.body).toEqual({
      resultCode: 'CARDSESSION_AVAILABLE',
      totpCodeValid: true,
      cardNumber: CARD,
      cardSession: 'AB12CD34',
      fullBarcode: code,
      reason: 'OK',
      keyIndex: 0,
      driftSteps: 0,
      bonusAvailable: true,
    });
  });

  it('answers 200 VALIDATION_FAILED when the password is wrong', async () => {
    const reply = await request(server.url, '/v1/barcode/verify', {
      body: { fullBarcode: 'CM;4000555566667777;;00000000' },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      resultCode: 'VALIDATION_FAILED',
      totpCodeValid: false,
      reason: 'CODE_MISMATCH',
    });
  });

  it('answers 400 body: must be JSON when the body does not parse', async () => {
    const reply = await request(server.url, '/v1/barcode/verify', { body: '{"fullBarcode":' });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ status: 'BAD_REQUEST', errors: ['body: must be JSON'] });
  });

  it('names the field when fullBarcode is missing', async () => {
    const reply = await request(server.url, '/v1/barcode/verify', { body: {} });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ status: 'BAD_REQUEST', errors: ['fullBarcode: must be a string'] });
  });

  it('names each unknown field when there are extra fields', async () => {
    const reply = await request(server.url, '/v1/barcode/verify', {
      body: { fullBarcode: barcode(), tillId: 'x', extra: 1 },
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      status: 'BAD_REQUEST',
      errors: ['tillId: unknown field', 'extra: unknown field'],
    });
  });

  it('answers 400 when fullBarcode is not a string', async () => {
    for (const fullBarcode of [42, null, ['CM'], { a: 1 }]) {
      const reply = await request(server.url, '/v1/barcode/verify', { body: { fullBarcode } });
      expect(reply.status, JSON.stringify(fullBarcode)).toBe(400);
      expect(reply.body).toMatchObject({ status: 'BAD_REQUEST', errors: ['fullBarcode: must be a string'] });
    }
  });

  it('answers 400 naming the body when the JSON is not an object', async () => {
    for (const body of ['[]', '"CM;1;;2"', 'null', '7']) {
      const reply = await request(server.url, '/v1/barcode/verify', { body });
      expect(reply.status, body).toBe(400);
      expect(reply.body.status).toBe('BAD_REQUEST');
      expect(reply.body.errors).toEqual([expect.stringMatching(/^body: /)]);
    }
  });

  it('refuses a barcode over 16,384 characters and accepts one of 16,384', async () => {
    const long = await request(server.url, '/v1/barcode/verify', { body: { fullBarcode: 'C'.repeat(16_385) } });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({
      status: 'BAD_REQUEST',
      errors: ['fullBarcode: must be at most 16384 characters'],
    });
    const limit = await request(server.url, '/v1/barcode/verify', { body: { fullBarcode: 'C'.repeat(16_384) } });
    expect(limit.status).toBe(200);
    expect(limit.body.resultCode).toBe('ANOTHER_INSTANCE');
  });

  it('answers 415 when the body is not declared as JSON', async () => {
    const plain = await request(server.url, '/v1/barcode/verify', {
      body: JSON.stringify({ fullBarcode: barcode() }),
      contentType: 'text/plain',
    });
    expect(plain.status).toBe(415);
    expect(plain.body).toMatchObject({
      status: 'UNSUPPORTED_MEDIA_TYPE',
      errors: ['Content-Type: must be application/json'],
    });
    const none = await request(server.url, '/v1/barcode/verify', {
      body: encoder.encode('{"fullBarcode":"x"}'),
      contentType: null,
    });
    expect(none.status).toBe(415);
  });

  it('accepts application/json with a charset parameter', async () => {
    const reply = await request(server.url, '/v1/barcode/verify', {
      body: { fullBarcode: 'XX;1;;2' },
      contentType: 'application/json; charset=utf-8',
    });
    expect(reply.status).toBe(200);
  });

  it('answers 413 when the body is over the default 1 MiB limit', async () => {
    const body = JSON.stringify({ fullBarcode: 'C'.repeat(1024 * 1024) });
    const reply = await request(server.url, '/v1/barcode/verify', { body });
    expect(reply.status).toBe(413);
    expect(reply.body).toMatchObject({ status: 'PAYLOAD_TOO_LARGE', errors: ['body: must be at most 1048576 bytes'] });
  });

  it(
    'closes the connection after refusing an unread body, so the next request ' + 'does not land on a dropped socket',
    async () => {
      const refused = await request(server.url, '/v1/barcode/verify', {
        body: JSON.stringify({ fullBarcode: 'C'.repeat(1024 * 1024) }),
      });
      expect(refused.status).toBe(413);
      expect(refused.headers.get('connection')).toBe('close');
      // Waits (on the server, not a timer) until the refused socket is gone: a client that reused it would now fail.
      await vi.waitFor(
        () =>
          new Promise<void>((resolve, reject) =>
            server.server.getConnections((error, open) => {
              if (error) reject(error);
              else if (open === 0) resolve();
              else reject(new Error(`${open} connections still open`));
            }),
          ),
        { timeout: 15_000, interval: 20 },
      );
      const next = await request(server.url, '/v1/barcode/verify', { body: { fullBarcode: 'XX;1;;2' } });
      expect(next.status).toBe(200);
    },
  );
});

describe('till authentication', () => {
  it('answers 401 with the document body and WWW-Authenticate when no key is presented', async () => {
    for (const path of ['/v1/barcode/verify', '/v1/token']) {
      const reply = await request(server.url, path, { body: { fullBarcode: barcode() }, key: null });
      expect(reply.status, path).toBe(401);
      expect(reply.body).toMatchObject(UNAUTHORIZED);
      expect(reply.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it('answers 401 when the key is wrong or the scheme is not Bearer', async () => {
    const wrong = await request(server.url, '/v1/barcode/verify', {
      body: { fullBarcode: barcode() },
      key: 'till-key-0123456789abcdeX',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject(UNAUTHORIZED);
    const basic = await request(server.url, '/v1/barcode/verify', {
      body: { fullBarcode: barcode() },
      key: null,
      headers: { authorization: `Basic ${Buffer.from(`till:${TILL_KEY}`).toString('base64')}` },
    });
    expect(basic.status).toBe(401);
  });

  it('refuses before reading the body, so an unauthenticated oversized body gets 401', async () => {
    const reply = await request(server.url, '/v1/token', { body: 'x'.repeat(2 * 1024 * 1024), key: null });
    expect(reply.status).toBe(401);
  });

  it('accepts the key in ?key= when there is no Authorization header', async () => {
    const reply = await request(server.url, `/v1/barcode/verify?key=${TILL_KEY}`, {
      body: { fullBarcode: 'XX;1;;2' },
      key: null,
    });
    expect(reply.status).toBe(200);
    expect(reply.body.resultCode).toBe('ANOTHER_INSTANCE');
  });

  it('counts refusals in wpk_auth_failures_total', async () => {
    const before = await server.service.metrics.authFailures.countOf({ transport: 'http' });
    await request(server.url, '/v1/token', { body: '{}', key: 'nope-nope-nope-nope' });
    expect(await server.service.metrics.authFailures.countOf({ transport: 'http' })).toBe(before + 1);
  });
});

describe('unknown routes and methods', () => {
  it('answers 404 in the envelope when no route matches', async () => {
    const reply = await request(server.url, '/v2/anything', { key: null });
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ status: 'NOT_FOUND', errors: ['No such route'] });
  });

  it('answers 405 with Allow when the path exists under another method', async () => {
    const get = await request(server.url, '/v1/token');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(get.body).toMatchObject({ status: 'METHOD_NOT_ALLOWED', errors: ['method: must be POST'] });
    const post = await request(server.url, '/healthz', { body: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('failures inside the service', () => {
  it('answers 500 INTERNAL without the error message and logs it at error level without the key', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const failing = await startServer({
      verifier: failingVerifier(new Error('secret detail: card 4000123412341234')),
      options: { logger: capturingLogger(lines) },
    });
    try {
      const reply = await request(failing.url, `/v1/barcode/verify?key=${TILL_KEY}`, {
        body: { fullBarcode: barcode() },
        key: null,
      });
      expect(reply.status).toBe(500);
      expect(reply.body).toMatchObject({ status: 'INTERNAL', errors: ['Internal error'] });
      expect(reply.text).not.toContain('secret');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        level: 50,
        path: '/v1/barcode/verify',
        err: { message: 'secret detail: card 4000123412341234' },
      });
      expect(JSON.stringify(lines)).not.toContain(TILL_KEY);
    } finally {
      await failing.close();
    }
  });

  it('answers 503 STORE_UNAVAILABLE when the shared store fails', async () => {
    const failing = await startServer({
      verifier: failingVerifier(
        new StoreError('verification store failed', { cause: new Error('ECONNREFUSED 10.0.0.7:6379') }),
      ),
    });
    try {
      const reply = await request(failing.url, '/v1/barcode/verify', { body: { fullBarcode: barcode() } });
      expect(reply.status).toBe(503);
      expect(reply.body).toMatchObject({
        status: 'STORE_UNAVAILABLE',
        errors: ['The verification store is unavailable; the barcode was neither accepted nor refused'],
      });
      expect(reply.text).not.toContain('ECONNREFUSED');
    } finally {
      await failing.close();
    }
  });

  it('answers 503 VERIFIER_CLOSED once the verifier is closed', async () => {
    const verifier = createVerifier({ ...BASE_CONFIG, backend: 'wasm', clock: () => NOW });
    const closed = await startServer({ verifier });
    try {
      await verifier.close();
      const reply = await request(closed.url, '/v1/token', { body: '{}' });
      expect(reply.status).toBe(503);
      expect(reply.body).toMatchObject({ status: 'VERIFIER_CLOSED', errors: ['The server is shutting down'] });
    } finally {
      await closed.close();
    }
  });
});

describe('createHttpApp options', () => {
  const service = () =>
    new CashDeskService({ verifier: failingVerifier(new Error('unused')), tills: new TillRegistry([]) });

  it('names every bad option in a ConfigError', () => {
    let error: unknown;
    try {
      createHttpApp(service(), { bodyLimitBytes: 0, logger: console as never, colour: 'blue' } as never);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).code).toBe('CONFIG_INVALID');
    expect([...(error as ConfigError).issues].sort()).toEqual([
      'bodyLimitBytes: must be an integer from 1 to 16777216',
      'colour: unknown field',
      'logger: must be a pino Logger',
    ]);
  });

  it('builds an app with the defaults when no options are given', () => {
    expect(() => createHttpApp(service())).not.toThrow();
  });
});
