import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { demoConfig } from '../../../src/demo.js';
import { ConfigError } from '../../../src/errors.js';
import { startDemoSystem, type RunningDemoSystem } from '../../../src/server/demo-system.js';
import { BASKET, Till, TOTAL } from '../../support/pay-server.js';
import { RpcClient } from '../../support/ws-client.js';
import { Simulator } from '../pay/sandbox-harness.js';
import { testClock } from '../../support/clock.js';

function listenOn(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
const portOf = (server: Server) => (server.address() as { port: number }).port;
const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('startDemoSystem', () => {
  const clock = testClock('wall');
  let system: RunningDemoSystem;
  let app: Simulator;

  beforeAll(async () => {
    system = await startDemoSystem({ port: 0, clock: clock.now });
    app = new Simulator(system.sandbox.url);
  }, 480_000);
  afterAll(() => system?.close());

  it('puts the three servers on their own ports, each healthy', async () => {
    const urls = [system.cashDesk.url, system.sandbox.url, system.loyalty.url];
    expect(new Set(urls).size).toBe(3);
    for (const url of urls) expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect(system.webhookUrl).toBe(`${system.cashDesk.url}/webhooks/pay`);
  });

  it('issues sandbox cards whose fresh barcodes the cash desk server verifies, each once', async () => {
    const [first, second] = [await system.issueCard(), await system.issueCard({ walletPayIsDefault: true })];
    expect(first.barcode).not.toBe(second.barcode);
    const till = await RpcClient.connect(system.cashDesk.wsUrl, { key: demoConfig.tills[0].key });
    try {
      for (const card of [first, second]) {
        expect(await till.call('barcode.verify', { fullBarcode: card.barcode })).toMatchObject({
          resultCode: 'CARDSESSION_AVAILABLE',
          cardNumber: card.cardNumber,
          cardSession: card.cardSession,
        });
      }
    } finally {
      till.ws.close();
    }
  });

  it('has the sandbox drive the Loyalty server: a card issued through the sandbox exists there', async () => {
    expect(await app.get('/sandbox/loyalty/target')).toMatchObject({
      url: system.loyalty.url,
      login: demoConfig.loyalty.login,
    });
    const card = await app.post<{ cardNumber: string }>('/sandbox/loyalty/cards', {});
    const categories = await fetch(`${system.loyalty.url}/v1/card/${card.cardNumber}/categories`, {
      headers: {
        authorization:
          `Basic ` + `${Buffer.from(`${demoConfig.loyalty.login}:${demoConfig.loyalty.password}`).toString('base64')}`,
      },
    });
    expect(categories.status).toBe(200);
  });

  it(
    "takes a till's wallet payment end to end: scan, pay.start, confirm in the app, succeeded by webhook, " +
      'receipt, refund; the old barcode is refused, a rescan pays',
    async () => {
      const till = await Till.connect(system.cashDesk.wsUrl);
      try {
        const card = await system.issueCard({ walletPayIsDefault: true });
        const started = await till.call('pay.start', {
          fullBarcode: card.barcode,
          basket: BASKET,
          paymentId: 'demo-sale-1',
        });
        expect(started).toMatchObject({
          paymentId: 'demo-sale-1',
          phase: 'pending',
          walletPayIsDefault: true,
          totalAmount: TOTAL,
        });
        await app.confirm(started.transactionId);
        expect(await till.until((u) => u.paymentId === 'demo-sale-1' && u.phase === 'succeeded')).toMatchObject({
          status: 'succeeded',
          transactionId: started.transactionId,
        });
        // The status came by the wired webhook: the sandbox delivered it to the cash desk server, which took its
        // signature.
        await vi.waitFor(
          async () => {
            const { deliveries } = await app.get<{ deliveries: Array<{ url: string; body: string; status: string }> }>(
              '/sandbox/webhooks',
            );
            const succeeded = deliveries.filter(
              (d) => d.body.includes(started.transactionId) && d.body.includes('"succeeded"'),
            );
            expect(succeeded).toEqual([expect.objectContaining({ url: system.webhookUrl, status: 'delivered' })]);
          },
          { timeout: 30_000, interval: 100 },
        );

        expect(
          await till.call('pay.receipt', {
            paymentId: 'demo-sale-1',
            receipt: { fiscalSign: '3826350066', total: TOTAL },
          }),
        ).toMatchObject({ phase: 'succeeded', receiptSent: true });
        expect(await till.call('pay.refund', { paymentId: 'demo-sale-1', refundId: 'demo-refund-1' })).toMatchObject({
          phase: 'refunded',
          refundedAmount: TOTAL,
        });
        expect((await app.transaction(started.transactionId)).refundedAmount).toBe(TOTAL);

        await expect(
          till.call('pay.start', { fullBarcode: card.barcode, basket: BASKET, paymentId: 'demo-sale-2' }),
        ).rejects.toMatchObject({ code: 'BARCODE_REFUSED' });
        // Under rfc6238 (the demo's scheme) a card's password is one per step whatever its session: the rescan is a
        // step later.
        clock.advance(30_000);
        const rescanned = await app.rescan(card.cardNumber);
        const again = await till.call('pay.start', {
          fullBarcode: rescanned.barcode,
          basket: BASKET,
          paymentId: 'demo-sale-3',
        });
        expect(again).toMatchObject({ phase: 'pending', totalAmount: TOTAL });
        await app.confirm(again.transactionId);
        await till.until((u) => u.paymentId === 'demo-sale-3' && u.phase === 'succeeded');
      } finally {
        await till.close();
      }
    },
  );
});

describe('startDemoSystem on ports it cannot have', () => {
  it('refuses a port without room for port + 12, before starting anything', async () => {
    await expect(startDemoSystem({ port: 65_530 })).rejects.toThrow(ConfigError);
    await expect(startDemoSystem({ port: 65_530 })).rejects.toThrow(/port: must be an integer from 0 to 65523/);
  });

  it('names the server whose port is taken in one line and leaves nothing listening', async () => {
    const taken = await listenOn(0);
    const port = portOf(taken) - 10; // the sandbox's port
    try {
      const error = await startDemoSystem({ port }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code: 'PORT_UNAVAILABLE' });
      expect((error as Error).message).toContain(
        `127.0.0.1:${port + 10} (sandbox): already in use; stop what runs there or pick other ports with --port N`,
      );
      expect((error as Error).message).not.toContain('\n');
      // Nothing was left listening: the cash desk server's port is free.
      await closeServer(await listenOn(port));
    } finally {
      await closeServer(taken);
    }
  }, 60_000);
});
