import { afterEach, describe, expect, it } from 'vitest';
import { resolveBridgeOptions } from '../../../adapters/ws/options.js';
import { RpcClient } from '../../support/ws-client.js';
import { type BridgeServer, capturingLogger, eventually, startBridgeServer, TILL } from './harness.js';

/** The socket under a ws client, to stop reading as a stuck till would. */
function rawSocket(client: RpcClient): { pause(): void; resume(): void } {
  return (client.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
}

function refusal(promise: Promise<unknown>): Promise<number | undefined> {
  return promise.then(
    () => undefined,
    (error: { status?: number }) => error.status,
  );
}

// Answers to verify echo the barcode: 100 long ones make a ~420 KB answer per frame.
const longBarcode = `CM;4000123412341234;${'A'.repeat(3_900)};12345678`;
const verifyBatch = JSON.stringify(
  Array.from({ length: 100 }, (_, i) => ({
    jsonrpc: '2.0',
    id: i,
    method: 'barcode.verify',
    params: { fullBarcode: longBarcode },
  })),
);

describe('bridge connection caps and send budget', () => {
  let srv: BridgeServer | undefined;
  const clients: RpcClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await srv?.close();
    srv = undefined;
  });
  const connect = async () => {
    const client = await RpcClient.connect(srv!.url, { key: TILL.key });
    clients.push(client);
    return client;
  };

  it('documents its defaults: 1000 connections, 16 per till, 64 MiB of unsent answers', () => {
    expect(resolveBridgeOptions({})).toMatchObject({
      maxConnections: 1000,
      maxConnectionsPerTill: 16,
      maxBufferedBytesTotal: 64 * 1024 * 1024,
    });
  });

  it(
    'refuses an upgrade over maxConnections with 503 before upgrading, ' + 'and accepts again once one leaves',
    async () => {
      srv = await startBridgeServer({ maxConnections: 2 });
      const first = await connect();
      await connect();
      expect(await refusal(RpcClient.connect(srv.url, { key: TILL.key }))).toBe(503);
      // Refused before the key is looked at: no key at all gets the same answer.
      expect(await refusal(RpcClient.connect(srv.url, {}))).toBe(503);
      expect(srv.bridge.clients).toBe(2);
      await first.close();
      await eventually(() => srv!.bridge.clients === 1, 5_000, 'the bridge saw the close');
      expect(await (await connect()).call('health')).toMatchObject({ status: 'ok' });
    },
  );

  it('refuses a till over maxConnectionsPerTill with 429, after its key is checked', async () => {
    srv = await startBridgeServer({ maxConnectionsPerTill: 2 });
    await connect();
    const second = await connect();
    expect(await refusal(RpcClient.connect(srv.url, { key: TILL.key }))).toBe(429);
    // A wrong key is still told 401, not that the till is full.
    expect(await refusal(RpcClient.connect(srv.url, { key: 'not-a-till-key-0123456789' }))).toBe(401);
    await second.close();
    await eventually(() => srv!.bridge.clients === 1, 5_000, 'the bridge saw the close');
    expect(await (await connect()).call('health')).toMatchObject({ status: 'ok' });
  });

  it('closes clients that never read with 1013 once all unsent answers pass the ' +
    'budget, and keeps serving a reader', async () => {
    const { logger, records } = capturingLogger('warn');
    // Each client's own limit is far away: only the shared budget can stop them.
    srv = await startBridgeServer({
      logger,
      maxBufferedBytes: 256 * 1024 * 1024,
      maxBufferedBytesTotal: 2 * 1024 * 1024,
      closeGraceMs: 60_000,
    });
    const reader = await connect();
    const stuck = await Promise.all(Array.from({ length: 10 }, () => connect()));
    for (const client of stuck) rawSocket(client).pause();
    const closing = () => records.filter((r) => r.msg === 'slow consumer: closing' && r.code === 1013).length;
    for (let round = 0; round < 200 && closing() < stuck.length; round++) {
      for (const client of stuck) if (client.ws.readyState === client.ws.OPEN) client.send(verifyBatch);
      // Let the server read: the flood is bounded by the sockets, not by this loop.
      await new Promise((resolve) => setImmediate(resolve));
      if (round % 20 === 0) expect(await reader.call('health')).toMatchObject({ status: 'ok' });
    }
    await eventually(() => closing() === stuck.length, 20_000, 'every stuck client closed over the budget');
    expect(records.some((r) => r.msg === 'slow consumer: closing' && r.code === 1008)).toBe(false);
    // Once a stuck till reads again it finds its answers, then the close frame.
    for (const client of stuck) rawSocket(client).resume();
    for (const client of stuck)
      expect(await client.closed).toEqual({ code: 1013, reason: 'server send budget exhausted' });
    expect(await reader.call('health')).toMatchObject({ status: 'ok' });
  }, 60_000);
});
