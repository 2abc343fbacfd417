import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { barcode, request, startServer, TILL_KEY, type TestServer } from './client.js';

// The POST routes read and answer the Node request directly (adapters/http-server/raw-route.ts):
// these pin what that path does beyond the shared route tests.

const encoder = new TextEncoder();
const LIMIT = 1024;

/** POSTs `chunks` as a chunked body (no Content-Length), with the till key. */
function postChunked(url: string, path: string, chunks: string[]): Promise<Response> {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return fetch(new URL(path, url), {
    method: 'POST',
    body,
    duplex: 'half',
    headers: { authorization: `Bearer ${TILL_KEY}`, 'content-type': 'application/json' },
  } as RequestInit);
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ options: { bodyLimitBytes: LIMIT } });
});
afterAll(async () => {
  await server.close();
});

describe('raw POST routes', () => {
  it('accepts a chunked body within the limit on both routes', async () => {
    const verified = await postChunked(server.url, '/v1/barcode/verify', [
      '{"fullBarcode":',
      JSON.stringify(barcode()),
      '}',
    ]);
    expect(verified.status).toBe(200);
    expect((await verified.json()).resultCode).toBe('CARDSESSION_AVAILABLE');
    const signed = await postChunked(server.url, '/v1/token', ['{"requestId":', '"r-1"}']);
    expect(signed.status).toBe(200);
    expect(Object.keys(await signed.json())).toEqual(['token']);
  });

  it('refuses a chunked verify body as soon as it passes the limit, and closes the connection', async () => {
    const reply = await postChunked(server.url, '/v1/barcode/verify', [
      '{"fullBarcode":"',
      ...Array(4).fill('C'.repeat(400)),
      '"}',
    ]);
    expect(reply.status).toBe(413);
    expect(reply.headers.get('connection')).toBe('close');
    expect(await reply.json()).toMatchObject({
      status: 'PAYLOAD_TOO_LARGE',
      errors: [`body: must be at most ${LIMIT} bytes`],
    });
  });

  it('answers 400 body: must be JSON for an empty verify body, with or without a Content-Type', async () => {
    for (const contentType of ['application/json', null]) {
      const reply = await request(server.url, '/v1/barcode/verify', { body: new Uint8Array(0), contentType });
      expect(reply.status, String(contentType)).toBe(400);
      expect(reply.body).toMatchObject({ status: 'BAD_REQUEST', errors: ['body: must be JSON'] });
    }
  });

  it('accepts a body starting with a BOM on verify, as a web Request.json() would', async () => {
    const body = Uint8Array.from([0xef, 0xbb, 0xbf, ...encoder.encode('{"fullBarcode":"XX;1;;2"}')]);
    const reply = await request(server.url, '/v1/barcode/verify', { body, contentType: 'application/json' });
    expect(reply.status).toBe(200);
    expect(reply.body.resultCode).toBe('ANOTHER_INSTANCE');
  });

  it('keeps serving after a client goes away in the middle of its body', async () => {
    const { port } = new URL(server.url);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST /v1/barcode/verify HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TILL_KEY}\r\n` +
            'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"fullBarcode":',
        );
        setTimeout(() => socket.destroy(), 50);
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    const next = await request(server.url, '/v1/barcode/verify', { body: { fullBarcode: 'XX;1;;2' } });
    expect(next.status).toBe(200);
  });

  it('shows every answered request in GET /metrics', async () => {
    await request(server.url, '/v1/barcode/verify', { body: { fullBarcode: 'XX;1;;2' } });
    const counted = await server.service.metrics.httpRequests.countOf({ route: '/v1/barcode/verify', status: '200' });
    expect(counted).toBeGreaterThan(0);
    const scrape = await request(server.url, '/metrics', { key: null });
    expect(scrape.text).toContain(`wpk_http_requests_total{route="/v1/barcode/verify",status="200"} ${counted}\n`);
  });
});

describe('HEAD on refused paths', () => {
  it('answers 404 and 405 without a body', async () => {
    const missing = await request(server.url, '/v2/anything', { method: 'HEAD', key: null });
    expect(missing.status).toBe(404);
    expect(missing.text).toBe('');
    const post = await request(server.url, '/v1/token', { method: 'HEAD', key: null });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('POST');
    expect(post.text).toBe('');
  });
});
