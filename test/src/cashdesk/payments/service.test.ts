import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CashDeskPayments } from '../../../../src/cashdesk/payments/service.js';
import type { PaymentBasket, SessionUpdate } from '../../../../src/contracts/cashdesk-payments.js';
import type { CheckoutRequest } from '../../../../src/contracts/pay/bodies.js';
import { openDatabase, type Database } from '../../../../src/db/index.js';
import type { PayClient } from '../../../../src/pay/client.js';

const BASKET: PaymentBasket = { items: [{ name: 'Milk', article: 'MILK-1', measure: 'PIECE', quantity: 2, price: 8_990 }], discountAmount: 0 };

/** A Pay API that offers wallet pay (not as default) and answers every checkout with one invoice. */
const client = {
  availabilityTask: async () => ({ taskId: 't1', walletPayIsDefault: false, providers: [{ providerId: 'wallet', name: 'Wallet', available: true }] }),
  checkout: async (body: CheckoutRequest) => ({ transactionId: 'trx_1', requestId: body.requestId, status: 'created' as const }),
  status: () => new Promise(() => {}), // the result never matters here
} as unknown as PayClient;

/**
 * The database, with one read held back: the read of a till's open payments
 * answers only when `release()` is called, after its rows were read.
 */
function holdingOpenReads(db: Database) {
  let armed = false;
  let read!: () => void;
  let release!: () => void;
  const wasRead = new Promise<void>((resolve) => { read = resolve; });
  const released = new Promise<void>((resolve) => { release = resolve; });
  const held = new Proxy(db, {
    get(target, name, receiver) {
      if (name !== 'query') return Reflect.get(target, name, receiver) as unknown;
      return async (sql: string, params?: readonly unknown[]) => {
        const result = await target.query(sql, params);
        if (armed && /WHERE till_id = \$1 AND open /.test(sql)) {
          read();
          await released;
        }
        return result;
      };
    },
  });
  return { db: held, arm: () => { armed = true; }, wasRead, release };
}

describe('CashDeskPayments', () => {
  let db: Database;
  beforeAll(async () => { db = await openDatabase(); });
  afterAll(async () => { await db?.close(); });

  it('tells a reconnecting till the stored state of its payments before any newer update, even when the read is slower than the payment', async () => {
    const gate = holdingOpenReads(db);
    const payments = new CashDeskPayments({ client, db: gate.db, verify: () => Promise.reject(new Error('no scans here')), pollIntervalMs: 3_600_000 });
    await payments.init();
    try {
      expect(await payments.start('till-1', { cardSession: 'CS1', basket: BASKET, paymentId: 'p1' })).toMatchObject({ phase: 'offered' });
      gate.arm();
      const told: SessionUpdate[] = [];
      const subscribed = payments.subscribe('till-1', (update) => told.push(update));
      await gate.wasRead; // the stored state (offered) is read; the payment moves on before the read answers
      expect(await payments.checkout('till-1', 'p1')).toMatchObject({ phase: 'pending' });
      gate.release();
      await subscribed;
      expect(told.map((u) => u.phase)).toEqual(['offered', 'checkout', 'pending']);
    } finally {
      await payments.close();
    }
  });
});
