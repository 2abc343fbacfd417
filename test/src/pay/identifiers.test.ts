import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TransactionRef } from '../../../src/contracts/pay/bodies.js';
import { createPayClient } from '../../../src/entries/pay.js';
import { startFakePayServer } from './fake-pay-server.js';

// A service's own id: 90 characters with slashes, a space and a colon.
const LONG_ID = `payments/2026/11/29/${'a1b2c3d4e5'.repeat(6)}/x y:z`;

describe('TransactionRef', () => {
  it.each([LONG_ID, 'x', 'ü/ß', 'a'.repeat(256), 9007199254740991])('takes %s', (id) => {
    expect(TransactionRef.safeParse(id)).toMatchObject({ success: true, data: id });
  });

  it.each(['', 'a'.repeat(257), 'a\nb', 'tab\there', -1, 1.5, 2 ** 53])('refuses %j', (id) => {
    expect(TransactionRef.safeParse(id).success).toBe(false);
  });
});

describe('createPayClient, transaction ids as the service writes them', () => {
  let fake: Awaited<ReturnType<typeof startFakePayServer>>;
  beforeAll(async () => {
    fake = await startFakePayServer();
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => {
    fake.received.length = 0;
  });

  it('keeps a 90-character id with slashes from /checkout and sends it back to /status as it came', async () => {
    const pay = createPayClient({ baseUrl: fake.url, sign: () => 't' });
    fake.script('/checkout', { status: 200, body: { transactionId: LONG_ID, status: 'created' } });
    fake.script('/status', { status: 200, body: { transactionId: LONG_ID, status: 'succeeded' } });
    const items = [{ name: 'Milk', article: 'MILK-1', quantity: 1, price: 100 }];
    const made = await pay.checkout({
      requestId: 'req-1',
      cardSession: 'AB12CD34',
      items,
      discountAmount: 0,
      totalAmount: 100,
    });
    expect(made.transactionId).toBe(LONG_ID);
    expect(await pay.status({ transactionId: made.transactionId })).toMatchObject({ transactionId: LONG_ID });
    expect(JSON.parse(fake.received[1]!.body.toString())).toEqual({ transactionId: LONG_ID });
  });
});
