import { createHmac } from 'node:crypto';
import { flattenedVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARTNER_KEY } from '../../support/fixtures.js';
import { request, startServer, TILL_KEY, type TestServer } from './client.js';

const encoder = new TextEncoder();
// The token key as the README defines it: HMAC-SHA256(partnerKey, "token").
const tokenKey = createHmac('sha256', Buffer.from(PARTNER_KEY, 'hex')).update('token').digest();

/** Checks a detached-payload token against exactly these bytes. */
async function verifyToken(token: string, payload: Uint8Array): Promise<void> {
  expect(token).toMatch(/^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]{43}$/);
  const [header, , signature] = token.split('.');
  await flattenedVerify({ protected: header!, payload, signature: signature! }, tokenKey);
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe('POST /v1/token', () => {
  it('signs the exact bytes of a raw body with Cyrillic and odd whitespace', async () => {
    const body = ' {\n\t"customer" : "Иван Петров",  "items":[ 1 , 2.50 ,true],"note":"спасибо 🎉"}\r\n ';
    const reply = await request(server.url, '/v1/token', { body });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body)).toEqual(['token']);
    await verifyToken(reply.body.token, encoder.encode(body));
    // Re-serialised JSON is different bytes, and must not verify: the adapter signed what was sent.
    await expect(verifyToken(reply.body.token, encoder.encode(JSON.stringify(JSON.parse(body))))).rejects.toThrow();
  });

  it('signs the requestData string when the body is { requestData }', async () => {
    const inner = '{ "orderId" : "ORD-1", "title":"Товар «особый»" }';
    const reply = await request(server.url, '/v1/token', { body: { requestData: inner } });
    expect(reply.status).toBe(200);
    await verifyToken(reply.body.token, encoder.encode(inner));
  });

  it('signs the whole body when requestData is not its only key', async () => {
    const body = '{"requestData":"{}","amount":100}';
    const reply = await request(server.url, '/v1/token', { body });
    expect(reply.status).toBe(200);
    await verifyToken(reply.body.token, encoder.encode(body));
  });

  it('signs JSON bodies that are not objects as they are', async () => {
    for (const body of ['[1,2]', '"text"', ' 42 ']) {
      const reply = await request(server.url, '/v1/token', { body });
      expect(reply.status, body).toBe(200);
      await verifyToken(reply.body.token, encoder.encode(body));
    }
  });

  it('answers 400 REQUEST_DATA_INVALID with the byte offset when the body is not JSON', async () => {
    const reply = await request(server.url, '/v1/token', { body: '{"requestId":' });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      status: 'REQUEST_DATA_INVALID',
      errors: [
        expect.stringMatching(/^requestData: must be the JSON text of the request body \(invalid at byte \d+\)$/),
      ],
    });
  });

  it('answers 400 REQUEST_DATA_INVALID when requestData is not JSON text', async () => {
    const reply = await request(server.url, '/v1/token', { body: { requestData: 'hello' } });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      status: 'REQUEST_DATA_INVALID',
      errors: ['requestData: must be the JSON text of the request body (invalid at byte 0)'],
    });
  });

  it('answers 400 REQUEST_DATA_INVALID when the body is empty, not UTF-8, or starts with a BOM', async () => {
    const bodies: Array<[string, Uint8Array]> = [
      ['empty', new Uint8Array(0)],
      ['not UTF-8', Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])],
      ['BOM', Uint8Array.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d])],
    ];
    for (const [name, body] of bodies) {
      const reply = await request(server.url, '/v1/token', { body, contentType: 'application/json' });
      expect(reply.status, name).toBe(400);
      expect(reply.body.status, name).toBe('REQUEST_DATA_INVALID');
    }
  });

  it('answers 400 BAD_REQUEST when requestData is not a string', async () => {
    const reply = await request(server.url, '/v1/token', { body: { requestData: { amount: 1 } } });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      status: 'BAD_REQUEST',
      errors: ['requestData: must be a string: the JSON text of the request body'],
    });
  });

  it('answers 415 when the body is not declared as JSON', async () => {
    const plain = await request(server.url, '/v1/token', { body: '{}', contentType: 'text/plain' });
    expect(plain.status).toBe(415);
    expect(plain.body.status).toBe('UNSUPPORTED_MEDIA_TYPE');
    const none = await request(server.url, '/v1/token', { body: encoder.encode('{}'), contentType: null });
    expect(none.status).toBe(415);
  });

  it('signs a body of exactly the limit and refuses one byte more with 413', async () => {
    const small = await startServer({ options: { bodyLimitBytes: 1024 } });
    try {
      const exact = JSON.stringify({ pad: 'x'.repeat(1024 - 10) });
      expect(encoder.encode(exact).length).toBe(1024);
      const ok = await request(small.url, '/v1/token', { body: exact });
      expect(ok.status).toBe(200);
      await verifyToken(ok.body.token, encoder.encode(exact));
      const over = await request(small.url, '/v1/token', { body: `${exact} ` });
      expect(over.status).toBe(413);
      expect(over.body).toMatchObject({ status: 'PAYLOAD_TOO_LARGE', errors: ['body: must be at most 1024 bytes'] });
    } finally {
      await small.close();
    }
  });

  it('answers 413 when a chunked body without Content-Length passes the limit', async () => {
    const small = await startServer({ options: { bodyLimitBytes: 1024 } });
    try {
      const chunk = encoder.encode(`"${'x'.repeat(510)}"`);
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < 4; i++) controller.enqueue(chunk);
          controller.close();
        },
      });
      const response = await fetch(new URL('/v1/token', small.url), {
        method: 'POST',
        body: stream,
        duplex: 'half',
        headers: { authorization: `Bearer ${TILL_KEY}`, 'content-type': 'application/json' },
      } as RequestInit);
      expect(response.status).toBe(413);
      expect((await response.json()).status).toBe('PAYLOAD_TOO_LARGE');
    } finally {
      await small.close();
    }
  });
});
