import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpApp } from '../../../adapters/cashdesk-http/index.js';
import { createBridge } from '../../../adapters/ws/index.js';
import { CashDeskService } from '../../../src/cashdesk/service.js';
import { TillRegistry } from '../../../src/cashdesk/tills.js';
import { createVerifier, FailureLimiter, drawBarcode } from '../../../src/entries/index.js';
import { BASE_CONFIG, NOW, PARTNER_KEY } from '../../support/fixtures.js';
import { testClock } from '../../support/clock.js';
import { RpcClient } from '../../support/ws-client.js';

const TILLS = [
  { id: 'till-1', key: 'till-key-one-0123456789abcdef' },
  { id: 'till-2', key: 'till-key-two-0123456789abcdef' },
];
const WRONG_KEY = 'wrong-key-secret-4242424242424242';
/** Every address in 127.0.0.0/8 is loopback on Linux: the attacker and the honest till connect from different ones. */
const ATTACKER = '127.0.0.2';
const HONEST = '127.0.0.3';

function barcode(cardNumber = '4000123412341234', at = NOW): string {
  return drawBarcode({ ...BASE_CONFIG, key: PARTNER_KEY, cardNumber, cardSession: 'AB12CD34', at });
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request from `localAddress`, the body read whole. */
function send(
  url: string,
  {
    key,
    body,
    localAddress,
    upgrade = false,
  }: { key?: string; body?: unknown; localAddress: string; upgrade?: boolean },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = key === undefined ? {} : { authorization: `Bearer ${key}` };
    if (upgrade) {
      Object.assign(headers, {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        'sec-websocket-protocol': 'wallet-pos.v1',
      });
    } else headers['content-type'] = 'application/json';
    const req = httpRequest(url, { method: upgrade ? 'GET' : 'POST', headers, localAddress });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '' });
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function startCashDesk() {
  const time = testClock();
  const lines: string[] = [];
  const logger = pino(
    { level: 'info' },
    {
      write: (line: string) => {
        lines.push(line);
      },
    },
  );
  const verifier = createVerifier({ ...BASE_CONFIG, backend: 'wasm', clock: time.now });
  const limiter = new FailureLimiter({
    perAddress: { maxFailures: 5, windowMs: 60_000, lockoutMs: 120_000 },
    clock: time.now,
  });
  const service = new CashDeskService({ verifier, tills: new TillRegistry(TILLS), bruteForce: limiter, logger });
  const bridge = createBridge(service, { logger });
  const server: Server = createServer(getRequestListener(createHttpApp(service, { logger }).fetch));
  server.on('upgrade', (req, socket, head) => bridge.handleUpgrade(req, socket, head));
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    time,
    lines,
    service,
    limiter,
    http: `http://127.0.0.1:${port}`,
    ws: `ws://127.0.0.1:${port}/ws`,
    async close() {
      await bridge.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await verifier.close();
    },
  };
}

type CashDesk = Awaited<ReturnType<typeof startCashDesk>>;
let desk: CashDesk | undefined;
afterEach(async () => {
  await desk?.close();
  desk = undefined;
});

const verifyUrl = (d: CashDesk) => `${d.http}/v1/barcode/verify`;

describe('till key brute-force limit', () => {
  describe('over HTTP', () => {
    it('answers 429 with Retry-After after 5 wrong keys from one address, without checking the key', async () => {
      desk = await startCashDesk();
      for (let i = 0; i < 5; i++) {
        expect(
          (await send(verifyUrl(desk), { key: WRONG_KEY, body: { fullBarcode: 'x' }, localAddress: ATTACKER })).status,
        ).toBe(401);
      }
      const locked = await send(verifyUrl(desk), {
        key: WRONG_KEY,
        body: { fullBarcode: 'x' },
        localAddress: ATTACKER,
      });
      expect(locked.status).toBe(429);
      expect(locked.headers['retry-after']).toBe('120');
      expect(JSON.parse(locked.body)).toMatchObject({
        status: 'TOO_MANY_REQUESTS',
        errors: ['Too many failed authentications: retry after 120 s'],
      });
      // Even the right key is not checked from a locked-out address.
      const right = await send(verifyUrl(desk), {
        key: TILLS[0]!.key,
        body: { fullBarcode: barcode() },
        localAddress: ATTACKER,
      });
      expect(right.status).toBe(429);
    });

    it('still lets the right key in from another address during the lockout', async () => {
      desk = await startCashDesk();
      for (let i = 0; i < 6; i++)
        await send(verifyUrl(desk), { key: WRONG_KEY, body: { fullBarcode: 'x' }, localAddress: ATTACKER });
      const honest = await send(verifyUrl(desk), {
        key: TILLS[0]!.key,
        body: { fullBarcode: barcode() },
        localAddress: HONEST,
      });
      expect(honest.status).toBe(200);
      expect(JSON.parse(honest.body)).toMatchObject({ reason: 'OK' });
    });

    it('lets the address in again once the lockout is over', async () => {
      desk = await startCashDesk();
      for (let i = 0; i < 6; i++)
        await send(verifyUrl(desk), { key: WRONG_KEY, body: { fullBarcode: 'x' }, localAddress: ATTACKER });
      desk.time.advance(119_000);
      const stillLocked = await send(verifyUrl(desk), {
        key: TILLS[0]!.key,
        body: { fullBarcode: 'x' },
        localAddress: ATTACKER,
      });
      expect(stillLocked.status).toBe(429);
      expect(stillLocked.headers['retry-after']).toBe('1');
      desk.time.advance(1_000);
      const after = await send(verifyUrl(desk), {
        key: TILLS[0]!.key,
        body: { fullBarcode: barcode('55', desk.time.now()) },
        localAddress: ATTACKER,
      });
      expect(after.status).toBe(200);
    });

    it('logs one line per lockout, never the key, and counts it in wpk_auth_lockouts_total', async () => {
      desk = await startCashDesk();
      for (let i = 0; i < 9; i++)
        await send(verifyUrl(desk), { key: WRONG_KEY, body: { fullBarcode: 'x' }, localAddress: ATTACKER });
      const lockoutLines = desk.lines.filter((l) => l.includes('locked out'));
      expect(lockoutLines).toHaveLength(1);
      expect(JSON.parse(lockoutLines[0]!)).toMatchObject({
        level: 40,
        transport: 'http',
        remoteAddress: ATTACKER,
        retryAfterSeconds: 120,
      });
      expect(desk.lines.join('\n')).not.toContain(WRONG_KEY);
      expect(await desk.service.metrics.authLockouts.countOf({ transport: 'http' })).toBe(1);
      const metrics = await new Promise<string>((resolve, reject) => {
        httpRequest(`${desk!.http}/metrics`, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => {
            text += c;
          });
          res.on('end', () => resolve(text));
        })
          .on('error', reject)
          .end();
      });
      expect(metrics).toContain('wpk_auth_lockouts_total{transport="http"} 1');
      expect(desk.limiter.lockouts).toBe(1);
    });
  });

  describe('over the WebSocket upgrade', () => {
    it('answers an HTTP 429 with Retry-After before the upgrade, and upgrades again after the cool-down', async () => {
      desk = await startCashDesk();
      for (let i = 0; i < 5; i++)
        expect(
          (await send(desk.ws.replace('ws:', 'http:'), { key: WRONG_KEY, localAddress: ATTACKER, upgrade: true }))
            .status,
        ).toBe(401);
      const locked = await send(desk.ws.replace('ws:', 'http:'), {
        key: TILLS[0]!.key,
        localAddress: ATTACKER,
        upgrade: true,
      });
      expect(locked.status).toBe(429);
      expect(locked.headers['retry-after']).toBe('120');
      expect(locked.body).toContain('retry after 120 s');

      // The right key from another address upgrades and verifies.
      const honest = await RpcClient.connect(desk.ws, { key: TILLS[1]!.key, ws: { localAddress: HONEST } });
      expect(await honest.call('barcode.verify', { fullBarcode: barcode() })).toMatchObject({ reason: 'OK' });
      await honest.close();

      const lockoutLines = desk.lines.filter((l) => l.includes('locked out'));
      expect(lockoutLines).toHaveLength(1);
      expect(JSON.parse(lockoutLines[0]!)).toMatchObject({ transport: 'ws', remoteAddress: ATTACKER });
      expect(desk.lines.join('\n')).not.toContain(WRONG_KEY);
      expect(await desk.service.metrics.authLockouts.countOf({ transport: 'ws' })).toBe(1);

      desk.time.advance(120_000);
      const again = await RpcClient.connect(desk.ws, { key: TILLS[0]!.key, ws: { localAddress: ATTACKER } });
      expect(await again.call('health')).toMatchObject({ status: 'ok' });
      await again.close();
    });
  });

  it('counts wrong keys per address across both transports', async () => {
    desk = await startCashDesk();
    for (let i = 0; i < 3; i++)
      await send(verifyUrl(desk), { key: WRONG_KEY, body: { fullBarcode: 'x' }, localAddress: ATTACKER });
    for (let i = 0; i < 2; i++)
      await send(desk.ws.replace('ws:', 'http:'), { key: WRONG_KEY, localAddress: ATTACKER, upgrade: true });
    expect(
      (await send(verifyUrl(desk), { key: WRONG_KEY, body: { fullBarcode: 'x' }, localAddress: ATTACKER })).status,
    ).toBe(429);
  });
});
