import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateBarcode } from '../../../src/entries/index.js';
import { BASE_CONFIG, NOW } from '../../support/fixtures.js';
import { RpcClient } from '../../support/ws-client.js';
import { type BridgeServer, capturingLogger, eventually, startBridgeServer, TILL } from './harness.js';

function barcodeFor(cardNumber: string): string {
  return generateBarcode({ ...BASE_CONFIG, cardNumber, cardSession: 'AB12CD34', at: NOW });
}

/** The socket under a ws client, to stop reading as a stuck till would. */
function rawSocket(client: RpcClient): { pause(): void; resume(): void } {
  return (client.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
}

describe('bridge robustness', () => {
  let srv: BridgeServer | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await srv?.close();
    srv = undefined;
  });

  it('keeps serving others when a client disconnects in the middle of a call', async () => {
    // 22 connections of one till, some not yet seen closed when the next opens: over the default 16 per till.
    srv = await startBridgeServer({ maxConnectionsPerTill: 100 });
    const other = await RpcClient.connect(srv.url, { key: TILL.key });
    // A call the server is still working on when its client goes away.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const verify = srv.service.verify.bind(srv.service);
    vi.spyOn(srv.service, 'verifySync').mockImplementationOnce(async (code) => {
      await gate;
      return verify(code);
    });
    const leaver = await RpcClient.connect(srv.url, { key: TILL.key });
    leaver.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'barcode.verify',
      params: { fullBarcode: barcodeFor('4100000000000001') },
    });
    await eventually(() => vi.mocked(srv!.service.verifySync).mock.calls.length === 1, 15_000, 'call started');
    leaver.ws.terminate();
    await leaver.closed;
    release();
    // And one that leaves right after sending, before the server has even read the frame.
    for (let i = 0; i < 20; i++) {
      const quick = await RpcClient.connect(srv.url, { key: TILL.key });
      quick.send({ jsonrpc: '2.0', id: i, method: 'token.get', params: { requestData: `{"n":${i}}` } });
      quick.ws.terminate();
    }
    expect(await other.call('barcode.verify', { fullBarcode: barcodeFor('4100000000000002') })).toMatchObject({
      reason: 'OK',
    });
    await eventually(() => srv!.bridge.clients === 1, 5_000, 'only the other client left');
    expect((await srv.service.metrics.bridgeConnections.get()).values[0]!.value).toBe(1);
    await other.close();
  });

  it('closes a client that never reads as a slow consumer (1008) while another keeps getting answers', async () => {
    const { logger, records } = capturingLogger('warn');
    srv = await startBridgeServer({ logger, closeGraceMs: 10_000 });
    const reader = await RpcClient.connect(srv.url, { key: TILL.key });
    const stuck = await RpcClient.connect(srv.url, { key: TILL.key });
    rawSocket(stuck).pause();
    // Answers to verify echo the barcode: 100 long ones make a ~420 KB answer per frame. Token
    // requests with large bodies make the server work while their answers stay small.
    const longBarcode = `CM;4000123412341234;${'A'.repeat(3_900)};12345678`;
    const verifyBatch = JSON.stringify(
      Array.from({ length: 100 }, (_, i) => ({
        jsonrpc: '2.0',
        id: i,
        method: 'barcode.verify',
        params: { fullBarcode: longBarcode },
      })),
    );
    const bigBody = JSON.stringify({ items: Array.from({ length: 5_000 }, (_, i) => ({ sku: `sku-${i}`, qty: 1 })) });
    const tokenBatch = JSON.stringify(
      Array.from({ length: 4 }, (_, i) => ({
        jsonrpc: '2.0',
        id: `t${i}`,
        method: 'token.get',
        params: { requestData: bigBody },
      })),
    );
    const slow = (): boolean => records.some((r) => r.msg === 'slow consumer: closing');
    let answered = 0;
    for (let frame = 0; frame < 400 && !slow(); frame++) {
      stuck.send(frame % 2 === 0 ? verifyBatch : tokenBatch);
      if (frame % 10 === 0) {
        expect(await reader.call('health')).toMatchObject({ status: 'ok' });
        answered++;
      }
      // Let the server read: the flood is bounded by the socket, not by this loop.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await eventually(slow, 10_000, 'slow consumer detected');
    expect(answered).toBeGreaterThan(0);
    expect(records.find((r) => r.msg === 'slow consumer: closing')).toMatchObject({ till: 'till-1', level: 40 });
    expect(await reader.call('barcode.verify', { fullBarcode: barcodeFor('4200000000000001') })).toMatchObject({
      reason: 'OK',
    });
    // Once the stuck till reads again it finds its answers, then the close frame.
    rawSocket(stuck).resume();
    expect(await stuck.closed).toEqual({ code: 1008, reason: 'slow consumer' });
    expect(await reader.call('health')).toMatchObject({ status: 'ok' });
    await reader.close();
  }, 90_000); // sized by frames (at most 400), not time: heavy work that a loaded machine stretches

  it('terminates a peer that stops answering pings and keeps one that answers', async () => {
    // The heartbeat's interval is driven by the test (only setInterval is faked; sockets run for real), so a
    // healthy peer's pong can never be late for a tick on a loaded machine: each round waits on events.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const { logger, records } = capturingLogger('warn');
      srv = await startBridgeServer({ pingIntervalMs: 100, logger });
      const healthy = await RpcClient.connect(srv.url, { key: TILL.key });
      const dead = await RpcClient.connect(srv.url, { key: TILL.key, ws: { autoPong: false } });
      let deadClosed = false;
      void dead.closed.then(() => {
        deadClosed = true;
      });
      /** One heartbeat tick; resolves once the healthy peer got its ping and the server read its pong. */
      const tick = async (): Promise<void> => {
        const pinged = new Promise((resolve) => healthy.ws.once('ping', resolve));
        vi.advanceTimersByTime(100);
        await pinged;
        // The pong went out before this call's frame, so the server has read it once the call is answered.
        expect(await healthy.call('health')).toMatchObject({ status: 'ok' });
      };
      await tick(); // both pinged; the dead peer does not answer
      expect(deadClosed).toBe(false);
      await tick(); // the dead peer is terminated, the healthy one pinged again
      const closed = await dead.closed;
      // Terminated, not closed: a dead peer would never complete a close handshake.
      expect(closed.code).toBe(1006);
      expect(records.filter((r) => r.msg === 'no pong since the last ping: terminating')).toHaveLength(1);
      for (let round = 0; round < 3; round++) await tick();
      expect(healthy.ws.readyState).toBe(healthy.ws.OPEN);
      expect(records.filter((r) => r.msg === 'no pong since the last ping: terminating')).toHaveLength(1);
      expect(srv.bridge.clients).toBe(1);
      await healthy.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers 1,000 concurrent connections each verifying a barcode, and still answers after', async () => {
    // One till key for all: the caps (1000 connections, 16 per till by default) are raised for this load test.
    srv = await startBridgeServer({ maxConnections: 2_000, maxConnectionsPerTill: 2_000 });
    const clients: RpcClient[] = [];
    // Opened in waves so the listen backlog never overflows (a dropped SYN costs a 1 s retry).
    for (let wave = 0; wave < 10; wave++) {
      clients.push(
        ...(await Promise.all(Array.from({ length: 100 }, () => RpcClient.connect(srv!.url, { key: TILL.key })))),
      );
    }
    expect(srv.bridge.clients).toBe(1_000);
    expect((await srv.service.metrics.bridgeConnections.get()).values[0]!.value).toBe(1_000);
    const cards = clients.map((_, i) => `43${String(i).padStart(14, '0')}`);
    const results = await Promise.all(
      clients.map((c, i) =>
        c.call<{ resultCode: string; cardNumber: string }>('barcode.verify', { fullBarcode: barcodeFor(cards[i]!) }),
      ),
    );
    expect(results.every((r, i) => r.resultCode === 'CARDSESSION_AVAILABLE' && r.cardNumber === cards[i])).toBe(true);
    const late = await RpcClient.connect(srv.url, { key: TILL.key });
    expect(await late.call('health')).toMatchObject({ status: 'ok' });
    await Promise.all([...clients, late].map((c) => c.close()));
    await eventually(() => srv!.bridge.clients === 0, 30_000, 'all disconnected');
  }, 120_000);
});
