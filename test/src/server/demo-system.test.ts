import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { demoConfig } from '../../../src/demo.js';
import { ConfigError } from '../../../src/errors.js';
import { createVerifier } from '../../../src/index.js';
import { createPayClient } from '../../../src/pay/index.js';
import { startDemoSystem, type RunningDemoSystem } from '../../../src/server/demo-system.js';
import { RpcClient } from '../../support/ws-client.js';
import { Simulator } from '../pay/sandbox-harness.js';

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
  let system: RunningDemoSystem;
  let app: Simulator;

  beforeAll(async () => {
    system = await startDemoSystem({ port: 0 });
    app = new Simulator(system.sandbox.url);
  }, 240_000);
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
          resultCode: 'CARDSESSION_AVAILABLE', cardNumber: card.cardNumber, cardSession: card.cardSession,
        });
      }
    } finally {
      till.ws.close();
    }
  });

  it('has the sandbox drive the Loyalty server: a card issued through the sandbox exists there', async () => {
    expect(await app.get('/sandbox/loyalty/target')).toMatchObject({ url: system.loyalty.url, login: demoConfig.loyalty.login });
    const card = await app.post<{ cardNumber: string }>('/sandbox/loyalty/cards', {});
    const categories = await fetch(`${system.loyalty.url}/v1/card/${card.cardNumber}/categories`, {
      headers: { authorization: `Basic ${Buffer.from(`${demoConfig.loyalty.login}:${demoConfig.loyalty.password}`).toString('base64')}` },
    });
    expect(categories.status).toBe(200);
  });

  it('sends the sandbox\'s Pay webhooks to the cash desk server\'s /webhooks/pay', async () => {
    const verifier = createVerifier({ ...demoConfig.verifier, replay: false });
    try {
      const pay = createPayClient({ baseUrl: system.sandbox.url, verifier });
      const card = await system.issueCard();
      const items = [{ name: 'Tea', article: 'T-1', quantity: 1, price: 15_000 }];
      const { transactionId } = await pay.checkout({ requestId: `demo-system-${card.cardNumber}`, cardSession: card.cardSession!, items, discountAmount: 0, totalAmount: 15_000 });
      await app.confirm(transactionId);
      const deliveries = await vi.waitFor(async () => {
        const { deliveries } = await app.get<{ deliveries: Array<{ url: string; body: string; attempts: number }> }>('/sandbox/webhooks');
        const mine = deliveries.filter((d) => d.body.includes(transactionId) && d.attempts > 0);
        expect(mine.length).toBeGreaterThan(0);
        return mine;
      }, { timeout: 30_000, interval: 100 });
      for (const delivery of deliveries) expect(delivery.url).toBe(system.webhookUrl);
    } finally {
      await verifier.close();
    }
  });
});

describe('startDemoSystem on ports it cannot have', () => {
  it('refuses a port without room for port + 11, before starting anything', async () => {
    await expect(startDemoSystem({ port: 65_530 })).rejects.toThrow(ConfigError);
    await expect(startDemoSystem({ port: 65_530 })).rejects.toThrow(/port: must be an integer from 0 to 65524/);
  });

  it('names the server whose port is taken in one line and leaves nothing listening', async () => {
    const taken = await listenOn(0);
    const port = portOf(taken) - 10; // the sandbox's port
    try {
      const error = await startDemoSystem({ port }).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain(`127.0.0.1:${port + 10} (sandbox): already in use; stop what runs there or pick other ports with --port N`);
      expect((error as Error).message).not.toContain('\n');
      // Nothing was left listening: the cash desk server's port is free.
      await closeServer(await listenOn(port));
    } finally {
      await closeServer(taken);
    }
  }, 60_000);
});
