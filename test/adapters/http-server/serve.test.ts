import type { TillVerificationsOptions } from '../../../src/cashdesk/verifications.js';
import { STATUS_CODES } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpApp } from '../../../adapters/cashdesk-http/index.js';
import { serveHttp } from '../../../adapters/http-server/index.js';
import type { BarcodeVerification } from '../../../src/contracts/barcode.js';
import { CashDeskService } from '../../../src/cashdesk/service.js';
import { TillRegistry } from '../../../src/cashdesk/tills.js';
import { request, TILL_KEY } from '../cashdesk-http/client.js';

/** A verifier whose barcodeVerify waits until the test releases it. */
function gatedVerifier() {
  let release!: () => void;
  let entered!: () => void;
  const started = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const verifier = {
    backend: 'wasm' as const,
    async barcodeVerify(fullBarcode: string): Promise<BarcodeVerification> {
      entered();
      await gate;
      return {
        resultCode: 'ANOTHER_INSTANCE',
        totpCodeValid: false,
        cardNumber: null,
        cardSession: null,
        fullBarcode,
        reason: 'PREFIX_MISMATCH',
      };
    },
    barcodeVerifyBatch: () => {
      throw new Error('unused');
    },
    getToken: () => 'unused',
    close: async () => {},
  };
  return { verifier, started, release };
}

const service = (verifier: TillVerificationsOptions['verifier']) =>
  new CashDeskService({ verifier, tills: new TillRegistry([{ id: 'till-1', key: TILL_KEY }]) });

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

describe('serveHttp', () => {
  it('listens on 127.0.0.1 and an ephemeral port by default', async () => {
    const served = await serveHttp(createHttpApp(service(gatedVerifier().verifier)));
    closers.push(served.close);
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(Number(new URL(served.url).port)).toBeGreaterThan(0);
    expect((await request(served.url, '/healthz', { key: null })).status).toBe(200);
  });

  it('rejects when the port is taken', async () => {
    const first = await serveHttp(createHttpApp(service(gatedVerifier().verifier)));
    closers.push(first.close);
    const port = Number(new URL(first.url).port);
    await expect(serveHttp(createHttpApp(service(gatedVerifier().verifier)), { port })).rejects.toMatchObject({
      code: 'EADDRINUSE',
    });
  });

  it('finishes an in-flight request before close() resolves, and refuses new connections meanwhile', async () => {
    const { verifier, started, release } = gatedVerifier();
    const served = await serveHttp(createHttpApp(service(verifier)));
    // Far beyond the test's timeout: if close() waited for a keep-alive socket to idle out, the test would time out.
    served.server.keepAliveTimeout = 600_000;
    // An idle keep-alive connection must not hold close() open.
    expect((await request(served.url, '/healthz', { key: null })).status).toBe(200);

    const inFlight = request(served.url, '/v1/barcode/verify', { body: { fullBarcode: 'XX;1;;2' } });
    await started;
    let closed = false;
    const closing = served.close().then(() => {
      closed = true;
    });
    await expect(fetch(new URL('/healthz', served.url))).rejects.toThrow();
    expect(closed).toBe(false);

    release();
    const reply = await inFlight;
    expect(reply.status).toBe(200);
    expect(reply.body.resultCode).toBe('ANOTHER_INSTANCE');
    expect(reply.headers.get('connection')).toBe('close');
    // Promptly: the answered keep-alive socket must not idle until its (10 minute) timeout.
    await closing;
    expect(closed).toBe(true);
    await served.close(); // idempotent
  });

  it('lets the caller attach an upgrade handler to the same server', async () => {
    const served = await serveHttp(createHttpApp(service(gatedVerifier().verifier)));
    closers.push(served.close);
    let upgraded = '';
    served.server.on('upgrade', (req, socket) => {
      upgraded = req.url ?? '';
      socket.end('HTTP/1.1 101 Switching Protocols\r\nUpgrade: test\r\nConnection: Upgrade\r\n\r\n');
    });
    const { request: httpRequest } = await import('node:http');
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${served.url}/ws`, { headers: { Connection: 'Upgrade', Upgrade: 'test' } });
      req.on('upgrade', (_res, socket) => {
        socket.destroy();
        resolve();
      });
      req.on('error', reject);
      req.end();
    });
    expect(upgraded).toBe('/ws');
  });
});

/** Sends `bytes` on a fresh loopback socket and resolves with everything the server sent once it closed the socket. */
function rawExchange(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    let received = '';
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(received));
  });
}

describe('serveHttp, a request Node itself refuses', () => {
  // Hostile requests answered by Node's HTTP parser before any app code: "HTTP/1.1 400 Bad Request" and no body,
  // where every other refusal of the kit is the error envelope.
  const verify = (headers: string) =>
    `POST /v1/barcode/verify HTTP/1.1\r\nHost: x\r\nContent-Type: ` +
    `application/json\r\n${headers}\r\n\r\n{"fullBarcode":"x"}`;
  it.each([
    [
      'a NUL byte in Authorization',
      verify(`Authorization: Bearer ${TILL_KEY}\0\r\nContent-Length: 18`),
      400,
      'BAD_REQUEST',
    ],
    [
      'a C0 control in X-Request-Id',
      verify(`Authorization: Bearer ${TILL_KEY}\r\nX-Request-Id: a\u0007b\r\nContent-Length: 18`),
      400,
      'BAD_REQUEST',
    ],
    [
      'two Content-Length headers',
      verify(`Authorization: Bearer ${TILL_KEY}\r\nContent-Length: 18\r\nContent-Length: 5`),
      400,
      'BAD_REQUEST',
    ],
    [
      'Content-Length with Transfer-Encoding',
      verify(`Authorization: Bearer ${TILL_KEY}\r\nContent-Length: 18\r\nTransfer-Encoding: chunked`),
      400,
      'BAD_REQUEST',
    ],
    ['a NUL byte in the path', 'GET /health\0z HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'BAD_REQUEST'],
    [
      'a head over the header size limit',
      `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`,
      431,
      'REQUEST_HEADER_FIELDS_TOO_LARGE',
    ],
  ])('answers %s in the error envelope and closes the connection', async (_, bytes, status, code) => {
    const served = await serveHttp(createHttpApp(service(gatedVerifier().verifier)));
    closers.push(served.close);
    const received = await rawExchange(served.url, bytes);
    const [head, body] = received.split('\r\n\r\n');
    expect(head!.split('\r\n')[0]).toBe(`HTTP/1.1 ${status} ${STATUS_CODES[status]}`);
    expect(head).toMatch(/\r\nconnection: close\r\n/i);
    expect(head).toMatch(/\r\ncontent-type: application\/json\r\n/i);
    const envelope = JSON.parse(body!) as { status: string; errors: string[]; requestId: string };
    expect(envelope).toMatchObject({ status: code, errors: [expect.any(String)] });
    expect(head).toContain(`x-request-id: ${envelope.requestId}`);
    // Nothing of the request is echoed.
    expect(body).not.toContain(TILL_KEY);
  });

  it('answers a request head that never ends 408 in the error envelope', async () => {
    const served = await serveHttp(createHttpApp(service(gatedVerifier().verifier)), {
      limits: { headersTimeoutMs: 100, requestTimeoutMs: 200 },
    });
    closers.push(served.close);
    const received = await rawExchange(served.url, 'GET /healthz HTTP/1.1\r\nHost: x\r\n');
    const [head, body] = received.split('\r\n\r\n');
    expect(head!.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
    expect(JSON.parse(body!)).toMatchObject({ status: 'REQUEST_TIMEOUT', errors: [expect.any(String)] });
  });
});
