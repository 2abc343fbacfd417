import type { Duplex } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BarcodeVerification } from '../../../src/contracts/barcode.js';
import { generateBarcode } from '../../../src/entries/index.js';
import { BASE_CONFIG, NOW } from '../../support/fixtures.js';
import { RpcClient } from '../../support/ws-client.js';
import { type BridgeServer, startBridgeServer, TILL } from './harness.js';

function barcodeFor(cardNumber: string): string {
  return generateBarcode({ ...BASE_CONFIG, cardNumber, cardSession: 'AB12CD34', at: NOW });
}

/** The socket under a ws client, to put many frames in one TCP write. */
function rawSocket(client: RpcClient): Duplex {
  return (client.ws as unknown as { _socket: Duplex })._socket;
}

/** Counts the writes (syscalls) the server makes on each socket it upgrades. */
function countServerWrites(srv: BridgeServer): { writes: number } {
  const counts = { writes: 0 };
  srv.server.prependListener(
    'upgrade',
    (_req, socket: Duplex & { _write: (...args: unknown[]) => unknown; _writev: (...args: unknown[]) => unknown }) => {
      for (const method of ['_write', '_writev'] as const) {
        const original = socket[method].bind(socket);
        socket[method] = (...args: unknown[]) => {
          counts.writes++;
          return original(...args);
        };
      }
    },
  );
  return counts;
}

describe('bridge under a burst of calls', () => {
  let srv: BridgeServer | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await srv?.close();
    srv = undefined;
  });

  it('answers 32 calls arriving together in order, in one write, with every call counted by then', async () => {
    srv = await startBridgeServer();
    const writes = countServerWrites(srv);
    const client = await RpcClient.connect(srv.url, { key: TILL.key });
    const before = await srv.service.metrics.bridgeCalls.countOf({ method: 'barcode.verify', outcome: 'ok' });
    const cards = Array.from({ length: 32 }, (_, i) => `44${String(i).padStart(14, '0')}`);
    const socket = rawSocket(client);
    writes.writes = 0;
    socket.cork();
    cards.forEach((card, i) => {
      client.send({ jsonrpc: '2.0', id: i, method: 'barcode.verify', params: { fullBarcode: barcodeFor(card) } });
    });
    process.nextTick(() => socket.uncork());
    const answers = [];
    for (let i = 0; i < cards.length; i++)
      answers.push((await client.next()) as { id: number; result: BarcodeVerification });
    expect(answers.map((a) => a.id)).toEqual(cards.map((_, i) => i));
    expect(answers.every((a, i) => a.result.reason === 'OK' && a.result.cardNumber === cards[i])).toBe(true);
    // Counted before the answers left, not some turn later.
    expect(await srv.service.metrics.bridgeCalls.countOf({ method: 'barcode.verify', outcome: 'ok' })).toBe(
      before + 32,
    );
    expect(writes.writes).toBe(1);
    await client.close();
  });

  it('waits on a verifier result that is a thenable but not a native promise', async () => {
    srv = await startBridgeServer();
    const client = await RpcClient.connect(srv.url, { key: TILL.key });
    const fullBarcode = barcodeFor('4500000000000001');
    const verifySync = srv.service.verifySync.bind(srv.service);
    vi.spyOn(srv.service, 'verifySync').mockImplementationOnce(
      (code) =>
        ({
          then: (resolve: (v: BarcodeVerification) => void) => {
            setTimeout(() => void Promise.resolve(verifySync(code)).then(resolve), 20);
          },
        }) as unknown as Promise<BarcodeVerification>,
    );
    client.send({ jsonrpc: '2.0', id: 'slow', method: 'barcode.verify', params: { fullBarcode } });
    client.send({ jsonrpc: '2.0', id: 'fast', method: 'health' });
    // Each answered when ready: the quick one first.
    expect(await client.next()).toMatchObject({ id: 'fast', result: { status: 'ok' } });
    expect(await client.next()).toMatchObject({ id: 'slow', result: { reason: 'OK', fullBarcode } });
    expect(srv.service.verifySync).toHaveBeenCalledTimes(1);
    await client.close();
  });

  it('answers a batch whose calls are partly asynchronous in request order', async () => {
    srv = await startBridgeServer();
    const client = await RpcClient.connect(srv.url, { key: TILL.key });
    const verifySync = srv.service.verifySync.bind(srv.service);
    vi.spyOn(srv.service, 'verifySync').mockImplementationOnce(async (code) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return verifySync(code);
    });
    client.send([
      { jsonrpc: '2.0', id: 1, method: 'barcode.verify', params: { fullBarcode: barcodeFor('4500000000000002') } },
      { jsonrpc: '2.0', id: 2, method: 'health' },
      { jsonrpc: '2.0', id: 3, method: 'barcode.verify', params: { fullBarcode: barcodeFor('4500000000000003') } },
    ]);
    const answer = (await client.next()) as Array<{ id: number; result: { reason?: string; status?: string } }>;
    expect(answer.map((a) => a.id)).toEqual([1, 2, 3]);
    expect(answer.map((a) => a.result.reason ?? a.result.status)).toEqual(['OK', 'ok', 'OK']);
    expect(srv.service.verifySync).toHaveBeenCalledTimes(2);
    await client.close();
  });
});
