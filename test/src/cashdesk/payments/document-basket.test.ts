import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CashDeskPayments } from '../../../../src/cashdesk/payments/service.js';
import { PaymentBasket, StartPayment } from '../../../../src/contracts/cashdesk-payments.js';
import { openDatabase, type Database } from '../../../../src/db/index.js';
import { demoConfig } from '../../../../src/demo.js';
import { createVerifier } from '../../../../src/entries/index.js';
import { createPayClient } from '../../../../src/entries/pay.js';
import { startFakePayServer } from '../../pay/fake-pay-server.js';

// What a till sends on the bridge: milk with no measure (pieces), cheese by the gram.
const PARAMS = {
  cardSession: 'AB12CD34',
  paymentId: 'p-doc-1',
  basket: {
    items: [
      { name: 'Milk', article: 'MILK-1', quantity: 2, price: 8_990 },
      { name: 'Cheese', article: 'CHEESE', measure: 'GRAM', quantity: 350, price: 120 },
    ],
  },
};

describe('PaymentBasket', () => {
  it('keeps measure only on the lines the till gave it', () => {
    const basket = PaymentBasket.parse(PARAMS.basket);
    expect(basket.items.map((i) => i.measure)).toEqual([undefined, 'GRAM']);
    expect(Object.keys(basket.items[0]!)).toEqual(['name', 'article', 'quantity', 'price']);
  });
});

describe('CashDeskPayments under profile document', () => {
  const verifier = createVerifier({ ...demoConfig.verifier, backend: 'wasm' });
  let fake: Awaited<ReturnType<typeof startFakePayServer>>;
  let db: Database;
  beforeAll(async () => {
    [fake, db] = await Promise.all([startFakePayServer(), openDatabase()]);
  });
  afterAll(async () => {
    await Promise.all([fake?.close(), db?.close(), verifier.close()]);
  });
  beforeEach(() => {
    fake.received.length = 0;
  });

  it('sends /checkout with no measure on a line the till gave none (and the one it gave)', async () => {
    fake.script('/availability-info/task', { status: 200, body: { walletPayIsDefault: true, providers: [{}] } });
    fake.script('/checkout', { status: 200, body: { transactionId: 'trx-doc-1' } });
    const client = createPayClient({ baseUrl: fake.url, verifier, retries: false, profile: 'document' });
    const payments = new CashDeskPayments({
      client,
      db,
      verify: () => Promise.reject(new Error('no scans here')),
      pollIntervalMs: 3_600_000,
    });
    await payments.init();
    try {
      // Parsed as the bridge parses a till's pay.start params; wallet pay being the default, it checks out at once.
      expect(await payments.start('till-1', StartPayment.parse(PARAMS))).toMatchObject({ phase: 'pending' });
    } finally {
      await payments.close();
    }
    const checkout = fake.received.find((r) => r.path === '/checkout')!;
    const items = (JSON.parse(checkout.body.toString('utf8')) as { items: Array<Record<string, unknown>> }).items;
    expect(items[0]).not.toHaveProperty('measure');
    expect(items[1]).toMatchObject({ measure: 'GRAM' });
  });
});
