import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBridge } from '../../../adapters/ws/index.js';
import { ConfigError } from '../../../src/errors.js';
import { CashDeskService } from '../../../src/cashdesk/service.js';
import { TillRegistry } from '../../../src/cashdesk/tills.js';
import { rawUpgrade, RpcClient } from '../../support/ws-client.js';
import { clientPool, type BridgeServer, eventually, startBridgeServer, TILL } from './harness.js';

describe('bridge upgrade', () => {
  let srv: BridgeServer;
  const pool = clientPool(() => srv.url);
  const connect = pool.connect;

  beforeAll(async () => {
    srv = await startBridgeServer();
  });
  afterEach(() => pool.closeAll());
  afterAll(async () => {
    await srv.close();
  });

  it('refuses a request without a key with a plain 401 and does not upgrade', async () => {
    const failures = await srv.service.metrics.authFailures.countOf({ transport: 'ws' });
    const answer = await rawUpgrade(srv.url, { 'Sec-WebSocket-Protocol': 'wallet-pos.v1' });
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBe('Bearer realm="wallet-pos.v1"');
    expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(answer.body).toMatch(/till key/);
    expect(await srv.service.metrics.authFailures.countOf({ transport: 'ws' })).toBe(failures + 1);
    expect(srv.bridge.clients).toBe(0);
  });

  it('refuses a wrong key with 401', async () => {
    await expect(connect({ key: 'till-key-wrong-0000000000' })).rejects.toMatchObject({ status: 401 });
    await expect(connect({}, `${srv.url}?key=nope-nope-nope-nope`)).rejects.toMatchObject({ status: 401 });
  });

  it('accepts the key in ?key= for tills that cannot set headers', async () => {
    const client = await connect({}, `${srv.url}?key=${TILL.key}`);
    expect(await client.call('health')).toMatchObject({ status: 'ok' });
  });

  it('refuses with 400 a client that does not offer the wallet-pos.v1 subprotocol', async () => {
    await expect(connect({ key: TILL.key, protocols: [] })).rejects.toMatchObject({ status: 400 });
    await expect(connect({ key: TILL.key, protocols: ['wallet-pos.v2', 'json'] })).rejects.toMatchObject({
      status: 400,
    });
    const answer = await rawUpgrade(srv.url, { Authorization: `Bearer ${TILL.key}` });
    expect(answer).toMatchObject({ status: 400, body: 'subprotocol wallet-pos.v1 required\n' });
    const client = await connect({ key: TILL.key, protocols: ['json', 'wallet-pos.v1'] });
    expect(client.ws.protocol).toBe('wallet-pos.v1');
  });

  it(
    'refuses an Origin outside the allowlist with 403 when the key is in the ' +
      'URL, and accepts a listed one or none',
    async () => {
      const guarded = await startBridgeServer({ allowedOrigins: ['https://POS.example.com:443/'] });
      const inUrl = `${guarded.url}?key=${TILL.key}`;
      try {
        const refused = await rawUpgrade(inUrl, {
          Origin: 'https://evil.example',
          'Sec-WebSocket-Protocol': 'wallet-pos.v1',
        });
        expect(refused).toMatchObject({ status: 403, body: 'origin not allowed\n' });
        await expect(connect({ headers: { Origin: 'null' } }, inUrl)).rejects.toMatchObject({ status: 403 });
        // Remembered Basic credentials are what a browser may attach by itself: still a browser's upgrade.
        await expect(
          connect({ headers: { Origin: 'https://evil.example', Authorization: 'Basic dGlsbDprZXk=' } }, inUrl),
        ).rejects.toMatchObject({ status: 403 });
        const browser = await connect({ headers: { Origin: 'https://pos.example.com' } }, inUrl);
        expect(await browser.call('health')).toMatchObject({ status: 'ok' });
        const till = await connect({}, inUrl);
        expect(await till.call('health')).toMatchObject({ status: 'ok' });
        await pool.closeAll();
      } finally {
        await guarded.close();
      }
      // The default allowlist is empty: any browser origin is refused.
      await expect(
        connect({ headers: { Origin: 'https://pos.example.com' } }, `${srv.url}?key=${TILL.key}`),
      ).rejects.toMatchObject({ status: 403 });
    },
  );

  it('accepts any Origin on an upgrade whose key is in the Authorization header (no browser can set it)', async () => {
    for (const Origin of ['https://evil.example', 'null', 'http://localhost:1234']) {
      const client = await connect({ key: TILL.key, headers: { Origin } });
      expect(await client.call('health'), Origin).toMatchObject({ status: 'ok' });
    }
    // A wrong key in the header is refused for the key, not the origin.
    await expect(
      connect({ key: 'not-a-till-key-0123456789', headers: { Origin: 'https://evil.example' } }),
    ).rejects.toMatchObject({ status: 401 });
  });

  it('lets ws refuse a malformed handshake (400) after the bridge checks pass, and keeps serving', async () => {
    const answer = await rawUpgrade(srv.url, {
      Authorization: `Bearer ${TILL.key}`,
      'Sec-WebSocket-Protocol': 'wallet-pos.v1',
      'Sec-WebSocket-Key': 'short',
    });
    expect(answer.status).toBe(400);
    const client = await connect();
    expect(await client.call('health')).toMatchObject({ status: 'ok' });
  });

  it('moves the connections gauge up on open and down on close', async () => {
    const gauge = srv.service.metrics.bridgeConnections;
    const value = async () => (await gauge.get()).values[0]!.value;
    await eventually(() => srv.bridge.clients === 0, 15_000, 'earlier clients gone');
    const start = await value();
    const a = await connect();
    const b = await connect();
    expect(await value()).toBe(start + 2);
    expect(srv.bridge.clients).toBe(start + 2);
    await a.close();
    await expect.poll(value, { timeout: 15_000 }).toBe(start + 1);
    b.ws.terminate();
    await expect.poll(value, { timeout: 15_000 }).toBe(start);
    await eventually(() => srv.bridge.clients === start, 15_000, 'clients back');
  });
});

describe('bridge close', () => {
  it('sends 1001 server shutting down to each client, then refuses new upgrades with 503', async () => {
    const srv = await startBridgeServer();
    try {
      const a = await RpcClient.connect(srv.url, { key: TILL.key });
      const b = await RpcClient.connect(srv.url, { key: TILL.key });
      const closing = srv.bridge.close();
      expect(await a.closed).toEqual({ code: 1001, reason: 'server shutting down' });
      expect(await b.closed).toEqual({ code: 1001, reason: 'server shutting down' });
      await closing;
      expect(srv.bridge.clients).toBe(0);
      expect((await srv.service.metrics.bridgeConnections.get()).values[0]!.value).toBe(0);
      expect(
        await rawUpgrade(srv.url, { Authorization: `Bearer ${TILL.key}`, 'Sec-WebSocket-Protocol': 'wallet-pos.v1' }),
      ).toMatchObject({ status: 503 });
      await srv.bridge.close(); // idempotent
    } finally {
      await srv.close();
    }
  });

  it('answers the calls in flight before the close frame', async () => {
    const srv = await startBridgeServer();
    try {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const verify = srv.service.verify.bind(srv.service);
      vi.spyOn(srv.service, 'verifySync').mockImplementationOnce(async (code) => {
        await gate;
        return verify(code);
      });
      const client = await RpcClient.connect(srv.url, { key: TILL.key });
      const call = client.call('barcode.verify', { fullBarcode: 'CM;1;;1' });
      await eventually(() => vi.mocked(srv.service.verifySync).mock.calls.length === 1, 15_000, 'call started');
      const closing = srv.bridge.close();
      release(); // after close() began: the call is still in flight when the bridge starts closing
      expect(await call).toMatchObject({ resultCode: 'VALIDATION_FAILED' });
      expect(await client.closed).toEqual({ code: 1001, reason: 'server shutting down' });
      await closing;
    } finally {
      await srv.close();
    }
  });

  it('terminates a client that does not complete the close handshake after closeGraceMs', async () => {
    const srv = await startBridgeServer({ closeGraceMs: 200 });
    try {
      const client = await RpcClient.connect(srv.url, { key: TILL.key });
      // A peer that stops reading never sees the close frame, so never answers it.
      (client.ws as unknown as { _socket: { pause(): void } })._socket.pause();
      // Not timed: a close that waited for this peer would never resolve, and the test's timeout would say so.
      await srv.bridge.close();
      expect(srv.bridge.clients).toBe(0);
      client.ws.terminate();
    } finally {
      await srv.close();
    }
  });
});

describe('createBridge', () => {
  it('names every bad option in one ConfigError', () => {
    const service = new CashDeskService({
      verifier: {
        barcodeVerify: () => {
          throw new Error('unused');
        },
        barcodeVerifyBatch: () => {
          throw new Error('unused');
        },
        getToken: () => '',
        close: async () => undefined,
        backend: 'wasm',
      },
      tills: new TillRegistry([TILL]),
    });
    let error: unknown;
    try {
      createBridge(service, {
        maxPayloadBytes: 0,
        allowedOrigins: ['not an origin'],
        maxBatch: 1.5,
        logger: {} as never,
        extra: 1,
      } as never);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).code).toBe('CONFIG_INVALID');
    expect([...(error as ConfigError).issues].sort()).toEqual([
      'allowedOrigins.0: must be an origin such as https://pos.example.com',
      'extra: unknown field',
      'logger: must be a pino Logger',
      'maxBatch: must be an integer from 1 to 10000',
      'maxPayloadBytes: must be an integer from 1 to 268435456',
    ]);
  });
});
