import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CashDeskPayments } from '../../../../src/cashdesk/payments/service.js';
import type { PaymentBasket, SessionUpdate } from '../../../../src/contracts/cashdesk-payments.js';
import type { CheckoutRequest } from '../../../../src/contracts/pay/bodies.js';
import { openDatabase, type Database } from '../../../../src/db/index.js';
import type { PayClient } from '../../../../src/pay/client.js';
import { PayError } from '../../../../src/pay/errors.js';

const BASKET: PaymentBasket = {
  items: [{ name: 'Milk', article: 'MILK-1', measure: 'PIECE', quantity: 2, price: 8_990 }],
  discountAmount: 0,
};

/** A Pay API that offers wallet pay (not as default) and answers every checkout with one invoice. */
const client = {
  availabilityTask: async () => ({
    taskId: 't1',
    walletPayIsDefault: false,
    providers: [{ providerId: 'wallet', name: 'Wallet', available: true }],
  }),
  checkout: async (body: CheckoutRequest) => ({
    transactionId: 'trx_1',
    requestId: body.requestId,
    status: 'created' as const,
  }),
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
  const wasRead = new Promise<void>((resolve) => {
    read = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
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
  return {
    db: held,
    arm: () => {
      armed = true;
    },
    wasRead,
    release,
  };
}

describe('CashDeskPayments', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });

  it(
    'tells a reconnecting till the stored state of its payments before any newer update, even when the read is ' +
      'slower than the payment',
    async () => {
      const gate = holdingOpenReads(db);
      const payments = new CashDeskPayments({
        client,
        db: gate.db,
        verify: () => Promise.reject(new Error('no scans here')),
        pollIntervalMs: 3_600_000,
      });
      await payments.init();
      try {
        expect(await payments.start('till-1', { cardSession: 'CS1', basket: BASKET, paymentId: 'p1' })).toMatchObject({
          phase: 'offered',
        });
        gate.arm();
        const told: SessionUpdate[] = [];
        const subscribed = payments.subscribe('till-1', (update) => told.push(update));
        await gate.wasRead; // the stored state (offered) is read; the payment moves on before the read answers
        expect(await payments.checkout('till-1', { paymentId: 'p1' })).toMatchObject({ phase: 'pending' });
        gate.release();
        await subscribed;
        expect(told.map((u) => u.phase)).toEqual(['offered', 'checkout', 'pending']);
      } finally {
        await payments.close();
      }
    },
  );

  it(
    'tells the till and checks out before the write lands with writeBehind, and a reconnecting till hears the live ' +
      'phase',
    async () => {
      const own = await openDatabase(); // no open payments of other tests to adopt
      let holding = false;
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      const held = new Proxy(own, {
        get(target, name, receiver) {
          if (name !== 'query') return Reflect.get(target, name, receiver) as unknown;
          return async (sql: string, params?: readonly unknown[]) => {
            if (holding && /^\s*UPDATE cashdesk_payments/.test(sql)) await released;
            return target.query(sql, params);
          };
        },
      });
      const payments = new CashDeskPayments({
        client,
        db: held,
        verify: () => Promise.reject(new Error('no scans here')),
        pollIntervalMs: 3_600_000,
        writeBehind: true,
      });
      await payments.init();
      try {
        const told: SessionUpdate[] = [];
        await payments.subscribe('till-wb', (update) => told.push(update));
        expect(
          await payments.start('till-wb', { cardSession: 'CS1', basket: BASKET, paymentId: 'p-wb' }),
        ).toMatchObject({ phase: 'offered' });
        holding = true;
        // Every write of the checkout is held: the intent still answers and the till is told.
        expect(await payments.checkout('till-wb', { paymentId: 'p-wb' })).toMatchObject({
          phase: 'pending',
          transactionId: 'trx_1',
        });
        expect(told.map((u) => u.phase)).toEqual(expect.arrayContaining(['checkout', 'pending']));
        expect(told.at(-1)?.phase).toBe('pending');
        const again: SessionUpdate[] = [];
        // A till reconnecting now is told once the rows hold what it was told: never a phase older than the last.
        const resubscribed = payments.subscribe('till-wb', (update) => again.push(update));
        const listed = payments.list('till-wb', {}).then((l) => l.payments);
        const { rows: before } = await own.query<{ phase: string }>(
          "SELECT phase FROM cashdesk_payments WHERE payment_id = 'p-wb'",
        );
        expect(before[0]?.phase).not.toBe('pending'); // the row lags behind what the till was told
        release();
        await resubscribed;
        expect(again.filter((u) => u.paymentId === 'p-wb').at(-1)?.phase).toBe('pending');
        expect((await listed).map((v) => v.phase)).toEqual(['pending']);
        await payments.close(); // waits for the writes queued
        const { rows: after } = await own.query<{ phase: string }>(
          "SELECT phase FROM cashdesk_payments WHERE payment_id = 'p-wb'",
        );
        expect(after[0]?.phase).toBe('pending');
      } finally {
        release();
        await payments.close();
        await own.close();
      }
    },
  );

  it('answers two starts of one paymentId at once with one payment, in both write modes', async () => {
    for (const writeBehind of [false, true]) {
      const own = await openDatabase();
      let asked = 0;
      const counting = {
        ...client,
        availabilityTask: async () => {
          asked++;
          return client.availabilityTask({} as never);
        },
      } as unknown as PayClient;
      const payments = new CashDeskPayments({
        client: counting,
        db: own,
        verify: () => Promise.reject(new Error('no scans here')),
        pollIntervalMs: 3_600_000,
        writeBehind,
      });
      await payments.init();
      try {
        const [a, b] = await Promise.all([
          payments.start('till-2', { cardSession: 'CS1', basket: BASKET, paymentId: 'twice' }),
          payments.start('till-2', { cardSession: 'CS1', basket: BASKET, paymentId: 'twice' }),
        ]);
        expect([a.paymentId, b.paymentId, a.phase, b.phase]).toEqual(['twice', 'twice', 'offered', 'offered']);
        expect(asked).toBe(1);
        await payments.close();
        const { rows } = await own.query("SELECT payment_id FROM cashdesk_payments WHERE till_id = 'till-2'");
        expect(rows).toHaveLength(1);
      } finally {
        await payments.close();
        await own.close();
      }
    }
  });

  it('asks for the providers again on pay.retry when the first provider list got no answer', async () => {
    const own = await openDatabase();
    let asked = 0;
    const flaky = {
      ...client,
      availabilityTask: async () => {
        if (++asked === 1) throw new PayError('PAY_SERVER', 'the Pay API answered 503');
        return client.availabilityTask({} as never);
      },
    } as unknown as PayClient;
    const payments = new CashDeskPayments({
      client: flaky,
      db: own,
      verify: () => Promise.reject(new Error('no scans here')),
      pollIntervalMs: 3_600_000,
    });
    await payments.init();
    try {
      await expect(
        payments.start('till-3', { cardSession: 'CS1', basket: BASKET, paymentId: 'again' }),
      ).rejects.toMatchObject({ code: 'PAY_SERVER' });
      expect(await payments.get('till-3', { paymentId: 'again' })).toMatchObject({ phase: 'new' });
      expect(await payments.retry('till-3', { paymentId: 'again' })).toMatchObject({ phase: 'offered' });
      expect(asked).toBe(2);
    } finally {
      await payments.close();
      await own.close();
    }
  });
});
