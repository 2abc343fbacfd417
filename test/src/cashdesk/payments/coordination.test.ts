import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CashDeskPayments } from '../../../../src/cashdesk/payments/service.js';
import type { PaymentBasket, PaymentView } from '../../../../src/contracts/cashdesk-payments.js';
import type { CheckoutRequest } from '../../../../src/contracts/pay/bodies.js';
import { openDatabase, type Database } from '../../../../src/db/index.js';
import type { PayClient } from '../../../../src/pay/client.js';
import { PayError } from '../../../../src/pay/errors.js';

const BASKET: PaymentBasket = {
  items: [{ name: 'Milk', article: 'MILK-1', measure: 'PIECE', quantity: 1, price: 8_990 }],
  discountAmount: 0,
};

/** A Pay API (profile `document`: no /status probe) whose answers are lost while `losing` names the call. */
function lossyPayApi() {
  const api = {
    losing: new Set<'availabilityTask' | 'checkout'>(),
    tasks: [] as string[],
    checkouts: [] as CheckoutRequest[],
  };
  const lost = (path: string) => new PayError('PAY_NETWORK', `the answer to ${path} was lost`, { path });
  const client = {
    profile: 'document',
    availabilityTask: async (body: { requestId: string }) => {
      api.tasks.push(body.requestId);
      if (api.losing.has('availabilityTask')) throw lost('/availability-info/task');
      return {
        taskId: 't',
        walletPayIsDefault: true,
        providers: [{ providerId: 'wallet', name: 'Wallet', available: true }],
      };
    },
    checkout: async (body: CheckoutRequest) => {
      api.checkouts.push(body);
      if (api.losing.has('checkout')) throw lost('/checkout');
      return { transactionId: 'trx-1', requestId: body.requestId, status: 'created' as const };
    },
    status: () => new Promise(() => {}), // the result never matters here
  } as unknown as PayClient;
  return { api, client };
}

/** Polls `get` until `done` holds; a bounded number of rounds, so a payment nobody drives fails the test. */
async function until(get: () => Promise<PaymentView>, done: (view: PaymentView) => boolean): Promise<PaymentView> {
  let view = await get();
  for (let round = 0; round < 400 && !done(view); round++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    view = await get();
  }
  return view;
}

describe('Coordination', () => {
  let db: Database;
  let payments: CashDeskPayments;
  const { api, client } = lossyPayApi();

  beforeEach(async () => {
    db = await openDatabase();
    api.losing.clear();
    api.tasks.length = 0;
    api.checkouts.length = 0;
    payments = new CashDeskPayments({
      client,
      db,
      verify: () => Promise.reject(new Error('no scans here')),
      pollIntervalMs: 3_600_000,
      adoptIntervalMs: 20,
      sleep: async () => {},
    });
    await payments.init();
  });
  afterEach(async () => {
    await payments.close();
    await db.close();
  });

  it('asks for the provider list again when the answer to a till intent was lost, without another intent', async () => {
    api.losing.add('availabilityTask');
    await expect(payments.start('till-1', { cardSession: 'CS1', basket: BASKET, paymentId: 'p1' })).rejects.toThrow(
      PayError,
    );
    expect((await payments.get('till-1', { paymentId: 'p1' })).phase).toBe('new');
    api.losing.clear();
    const view = await until(
      () => payments.get('till-1', { paymentId: 'p1' }),
      (v) => v.phase === 'pending',
    );
    expect(view).toMatchObject({ phase: 'pending', transactionId: 'trx-1' });
    expect(api.checkouts).toHaveLength(1);
  });

  it('repeats /checkout with the same requestId when its answers were lost past the recovery rounds', async () => {
    api.losing.add('checkout');
    await expect(payments.start('till-1', { cardSession: 'CS1', basket: BASKET, paymentId: 'p2' })).rejects.toThrow(
      /no answer to \/checkout/,
    );
    expect((await payments.get('till-1', { paymentId: 'p2' })).phase).toBe('unknown');
    const tried = api.checkouts.length;
    api.losing.clear();
    const view = await until(
      () => payments.get('till-1', { paymentId: 'p2' }),
      (v) => v.phase === 'pending',
    );
    expect(view).toMatchObject({ phase: 'pending', transactionId: 'trx-1' });
    expect(api.checkouts.length).toBeGreaterThan(tried);
    expect(new Set(api.checkouts.map((c) => c.requestId)).size).toBe(1);
  });
});
