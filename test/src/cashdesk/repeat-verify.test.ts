import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { getRequestListener } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpApp } from '../../../adapters/cashdesk-http/index.js';
import { createBridge } from '../../../adapters/ws/index.js';
import { CashDeskService } from '../../../src/cashdesk/service.js';
import { TillRegistry } from '../../../src/cashdesk/tills.js';
import { createVerifier, drawBarcode, type VerificationStore } from '../../../src/entries/index.js';
import { BASE_CONFIG, NOW, PARTNER_KEY } from '../../support/fixtures.js';
import { redisTestStore } from '../../support/redis-store.js';
import { RpcClient } from '../../support/ws-client.js';

const TILLS = [
  { id: 'till-1', key: 'till-key-one-0123456789abcdef' },
  { id: 'till-2', key: 'till-key-two-0123456789abcdef' },
];
let card = 0;

/** A barcode of a card no other test (or earlier run on the same Redis) used. */
function freshBarcode(): string {
  const cardNumber = `${process.pid}${randomBytes(3).toString('hex')}${++card}`;
  return drawBarcode({ ...BASE_CONFIG, key: PARTNER_KEY, cardNumber, cardSession: 'AB12CD34', at: NOW });
}

async function startCashDesk(replay?: VerificationStore) {
  const verifier = createVerifier({ ...BASE_CONFIG, backend: 'wasm', clock: () => NOW, ...(replay ? { replay } : {}) });
  const service = new CashDeskService({ verifier, tills: new TillRegistry(TILLS) });
  const bridge = createBridge(service);
  const server: Server = createServer(getRequestListener(createHttpApp(service).fetch));
  server.on('upgrade', (req, socket, head) => bridge.handleUpgrade(req, socket, head));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
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

async function verifyOverHttp(base: string, key: string, fullBarcode: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${base}/v1/barcode/verify`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ fullBarcode }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

function suite(name: string, makeStore: () => VerificationStore | undefined, skip = false): void {
  describe.skipIf(skip)(`a till retrying barcode verification (${name})`, () => {
    let desk: Awaited<ReturnType<typeof startCashDesk>> | undefined;
    afterEach(async () => {
      await desk?.close();
      desk = undefined;
    });

    it('gets the same answer with repeated: true over the bridge, and another till gets REPLAYED', async () => {
      desk = await startCashDesk(makeStore());
      const one = await RpcClient.connect(desk.ws, { key: TILLS[0]!.key });
      const two = await RpcClient.connect(desk.ws, { key: TILLS[1]!.key });
      const code = freshBarcode();
      const first = await one.call<Record<string, unknown>>('barcode.verify', { fullBarcode: code });
      expect(first).toMatchObject({ resultCode: 'CARDSESSION_AVAILABLE', reason: 'OK' });
      expect(first).not.toHaveProperty('repeated');
      // The till lost the answer and reconnects: the retry is on a new connection.
      await one.close();
      const again = await RpcClient.connect(desk.ws, { key: TILLS[0]!.key });
      expect(await again.call('barcode.verify', { fullBarcode: code })).toEqual({ ...first, repeated: true });
      expect(await two.call('barcode.verify', { fullBarcode: code })).toMatchObject({
        resultCode: 'VALIDATION_FAILED',
        reason: 'REPLAYED',
      });
      await again.close();
      await two.close();
    });

    it('gets the same answer with repeated: true over HTTP, and another till gets REPLAYED', async () => {
      desk = await startCashDesk(makeStore());
      const code = freshBarcode();
      const first = await verifyOverHttp(desk.http, TILLS[0]!.key, code);
      expect(first).toMatchObject({ reason: 'OK' });
      expect(await verifyOverHttp(desk.http, TILLS[0]!.key, code)).toEqual({ ...first, repeated: true });
      expect(await verifyOverHttp(desk.http, TILLS[1]!.key, code)).toMatchObject({
        reason: 'REPLAYED',
        totpCodeValid: false,
      });
    });

    it('treats the same till on the bridge and over HTTP as one requester', async () => {
      desk = await startCashDesk(makeStore());
      const code = freshBarcode();
      const ws = await RpcClient.connect(desk.ws, { key: TILLS[0]!.key });
      const first = await ws.call<Record<string, unknown>>('barcode.verify', { fullBarcode: code });
      expect(await verifyOverHttp(desk.http, TILLS[0]!.key, code)).toEqual({ ...first, repeated: true });
      await ws.close();
    });
  });
}

suite('memory', () => undefined);

const redis = redisTestStore('retry', 'the till retry tests over Redis');
suite('Redis', redis.store, redis.skip);
