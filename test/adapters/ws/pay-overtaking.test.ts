import { EventEmitter, once } from 'node:events';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoConfig } from '../../../src/demo.js';
import { RpcClient } from '../../support/ws-client.js';
import { BASKET, startPayServer, type PayServer } from '../../support/pay-server.js';
import { paySandboxCases, type PaySandbox } from '../../src/pay/sandbox-harness.js';
import { testClock } from '../../support/clock.js';

const [pglite] = paySandboxCases('bridge answers overtaking a held /checkout');
const ORDERED = { id: 'till-ordered', key: 'till-key-ordered-0123456789', orderedAnswers: true };

/** A Pay API in front of the sandbox whose /checkout calls wait, while `holding`, until `release()`. */
class HoldingProxy {
  readonly arrived = new EventEmitter();
  holding = false;
  #held: Array<() => void> = [];
  readonly #server: Server;

  constructor(target: string) {
    this.#server = createServer((req, res) => {
      const forward = () => {
        const upstream = httpRequest(`${target}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(res);
        });
        upstream.on('error', () => res.destroy());
        req.pipe(upstream);
      };
      if (!this.holding || !(req.url ?? '').startsWith('/checkout')) {
        forward();
        return;
      }
      this.#held.push(forward);
      this.arrived.emit('checkout');
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  release(): void {
    this.holding = false;
    for (const forward of this.#held.splice(0)) forward();
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

/** A bridge client that keeps every frame's text in arrival order. */
async function recordingTill(url: string, key: string): Promise<{ client: RpcClient; frames: any[] }> {
  const client = await RpcClient.connect(url, { key });
  const frames: any[] = [];
  client.ws.on('message', (data) => frames.push(JSON.parse(String(data))));
  return { client, frames };
}

/** `wpk_bridge_calls_total` of `health` calls answered, from the server's /metrics. */
async function healthCalls(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^wpk_bridge_calls_total\{method="health",outcome="ok"\} (\d+)$/m.exec(text)?.[1] ?? 0);
}

describe('bridge answers while a pay.start waits on the Pay API', () => {
  const clock = testClock('wall');
  let sb: PaySandbox;
  let proxy: HoldingProxy;
  let pay: PayServer;
  beforeAll(async () => {
    sb = await pglite!.start(clock.now);
    proxy = new HoldingProxy(sb.url);
    const url = await proxy.listen();
    pay = await startPayServer({ ...sb, url }, { clock, tills: [...demoConfig.tills, ORDERED] });
  }, 120_000);
  afterAll(async () => {
    proxy?.release();
    await pay?.close();
    await proxy?.close();
    await sb?.close();
  });

  it(
    'answers a barcode.verify and a health sent after pay.start before ' + 'pay.start, and tells the payment after',
    async () => {
      const [card, other] = [await pay.sim.issueCard({ walletPayIsDefault: true }), await pay.sim.issueCard()];
      const { client, frames } = await recordingTill(pay.server.wsUrl, demoConfig.tills[0].key);
      try {
        proxy.holding = true;
        const checkout = once(proxy.arrived, 'checkout');
        const started = client.request({
          jsonrpc: '2.0',
          id: 'start',
          method: 'pay.start',
          params: { fullBarcode: card.barcode, basket: BASKET },
        });
        await checkout;
        // Both answered while the /checkout they were sent after is still held.
        expect(await client.call('barcode.verify', { fullBarcode: other.barcode })).toMatchObject({
          resultCode: 'CARDSESSION_AVAILABLE',
        });
        expect(await client.call('health')).toMatchObject({ status: 'ok' });
        proxy.release();
        const answer = (await started) as { result: { paymentId: string } };
        const { paymentId } = answer.result;
        await pay.sim.confirm((await client.call<{ transactionId: string }>('pay.get', { paymentId })).transactionId);
        const told = (f: any) => f.method === 'pay.sessionUpdated' && f.params.paymentId === paymentId;
        while (!frames.some((f) => told(f) && f.params.phase === 'succeeded')) await once(client.ws, 'message');
        const answeredAt = frames.findIndex((f) => f.id === 'start');
        expect(frames.findIndex(told)).toBeGreaterThan(answeredAt);
        expect(frames.filter(told).map((f) => f.params.phase)).toEqual([
          'checking',
          'checkout',
          'pending',
          'succeeded',
        ]);
      } finally {
        proxy.release();
        await client.close();
      }
    },
  );

  it('answers in call order for a till with orderedAnswers', async () => {
    const card = await pay.sim.issueCard({ walletPayIsDefault: true });
    const { client, frames } = await recordingTill(pay.server.wsUrl, ORDERED.key);
    try {
      proxy.holding = true;
      const checkout = once(proxy.arrived, 'checkout');
      const started = client.request({
        jsonrpc: '2.0',
        id: 'start',
        method: 'pay.start',
        params: { fullBarcode: card.barcode, basket: BASKET },
      });
      await checkout;
      const before = await healthCalls(pay.server.url);
      const health = client.call('health');
      // Released only once the health call has run (it is counted as it runs): its answer is ready first.
      while ((await healthCalls(pay.server.url)) === before) await new Promise((resolve) => setTimeout(resolve, 10));
      proxy.release();
      await Promise.all([started, health]);
      expect(frames.filter((f) => f.id !== undefined).map((f) => f.id)).toEqual(['start', 1]);
    } finally {
      proxy.release();
      await client.close();
    }
  });
});
