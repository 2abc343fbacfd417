import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CashDeskPayments } from '../../../../src/cashdesk/payments/service.js';
import type { PaymentBasket, SessionUpdate } from '../../../../src/contracts/cashdesk-payments.js';
import type { CheckoutRequest, TransactionState } from '../../../../src/contracts/pay/bodies.js';
import { openChannel, openDatabase, type Database } from '../../../../src/db/index.js';
import type { PayClient } from '../../../../src/pay/client.js';
import { generateWebhookSecret } from '../../../../src/entries/webhooks.js';
import { uniqueSchema } from '../../../support/databases.js';
import { DATABASE_URL, haveService } from '../../../support/services.js';
import { sendPayWebhook, succeededState } from './webhook-only-pay.js';

const BASKET: PaymentBasket = {
  items: [{ name: 'Milk', article: 'MILK-1', measure: 'PIECE', quantity: 1, price: 8_990 }],
  discountAmount: 0,
};
const never = () => new Promise<never>(() => {});

/**
 * A Pay API that offers wallet pay as the default and records every /checkout; results come only from webhooks.
 * `held`: each /checkout is answered only when `answer()` is called.
 */
function payApi(options: { checkout?: 'answer' | 'held' } = {}) {
  const checkouts: CheckoutRequest[] = [];
  const held: Array<() => void> = [];
  let calls = 0;
  const client = {
    profile: 'kit',
    availabilityTask: async () => {
      calls++;
      return {
        taskId: 't',
        walletPayIsDefault: true,
        providers: [{ providerId: 'wallet', name: 'Wallet', available: true }],
      };
    },
    checkout: async (body: CheckoutRequest) => {
      calls++;
      checkouts.push(body);
      if (options.checkout === 'held') await new Promise<void>((resolve) => held.push(resolve));
      return { transactionId: `trx-${body.cardSession}`, requestId: body.requestId, status: 'created' as const };
    },
    status: () => {
      calls++;
      return never();
    },
  } as unknown as PayClient;
  return {
    client,
    checkouts,
    calls: () => calls,
    answer: () => {
      for (const resolve of held.splice(0)) resolve();
    },
  };
}

/**
 * The database with a switch that holds every statement of one instance, as a process that froze or lost its network.
 */
function freezable(db: Database) {
  let frozen: Promise<void> | undefined;
  let thaw = () => {};
  const gated = new Proxy(db, {
    get(target, name, receiver) {
      if (name !== 'query') return Reflect.get(target, name, receiver) as unknown;
      return async (sql: string, params?: readonly unknown[]) => {
        while (frozen) await frozen;
        return target.query(sql, params);
      };
    },
  });
  return {
    db: gated,
    freeze() {
      frozen = new Promise<void>((resolve) => {
        thaw = () => {
          frozen = undefined;
          resolve();
        };
      });
    },
    thaw: () => thaw(),
  };
}

describe.runIf(haveService('DATABASE_URL', DATABASE_URL, 'payments shared by several instances'))(
  'CashDeskPayments on several instances',
  () => {
    const schema = uniqueSchema('leases');
    const url = DATABASE_URL!;
    let db: Database;
    const running: CashDeskPayments[] = [];
    const secret = generateWebhookSecret();

    const instance = async (
      client: PayClient,
      database: Database,
      options: { adoptIntervalMs?: number; leaseMs?: number } = {},
    ) => {
      const payments = new CashDeskPayments({
        client,
        db: database,
        verify: () => Promise.reject(new Error('no scans here')),
        pollIntervalMs: 3_600_000,
        webhookSecret: secret,
        adoptIntervalMs: options.adoptIntervalMs ?? 50,
        leaseMs: options.leaseMs ?? 600,
        openChannel: (l) =>
          openChannel({
            url,
            channel: `wpk_pay_${schema}`,
            notifyWith: db,
            onMessage: l.onMessage,
            onReconnect: l.onReconnect,
          }),
      });
      await payments.init();
      running.push(payments);
      return payments;
    };
    const webhook = (payments: CashDeskPayments, state: TransactionState) => sendPayWebhook(payments, secret, state);

    // Named, so the advisory-lock check below counts only this file's connections, not other test files' migrations.
    const applicationName = `wpk-${schema}`;
    beforeAll(async () => {
      const named = `${url}${url.includes('?') ? '&' : '?'}application_name=${applicationName}`;
      db = await openDatabase({ url: named, schema, maxConnections: 20 });
    }, 120_000);
    afterEach(async () => {
      await Promise.all(running.splice(0).map((p) => p.close()));
      await db.query('DELETE FROM cashdesk_payments').catch(() => {});
    });
    afterAll(async () => {
      await db?.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
      await db?.close();
    });

    it('sends one /checkout per payment while both instances adopt every millisecond', async () => {
      const pay = payApi();
      const [a, b] = [
        await instance(pay.client, db, { adoptIntervalMs: 1 }),
        await instance(pay.client, db, { adoptIntervalMs: 1 }),
      ];
      let claims = 0;
      const counted = new Proxy(db, {
        get: (t, n, r) =>
          n === 'query'
            ? (sql: string, p?: readonly unknown[]) => {
                if (sql.includes('SKIP LOCKED')) claims++;
                return t.query(sql, p);
              }
            : (Reflect.get(t, n, r) as unknown),
      });
      const watcher = await instance(pay.client, counted, { adoptIntervalMs: 1 });
      for (let i = 0; i < 40; i++)
        await (i % 2 === 0 ? a : b).start('till-1', { cardSession: `CS${i}`, basket: BASKET, paymentId: `p${i}` });
      await expect.poll(() => claims).toBeGreaterThan(200);
      const perSession = new Map<string, Set<string>>();
      for (const c of pay.checkouts)
        perSession.set(c.cardSession, (perSession.get(c.cardSession) ?? new Set()).add(c.requestId));
      expect(pay.checkouts).toHaveLength(40);
      expect([...perSession.values()].every((ids) => ids.size === 1)).toBe(true);
      void watcher;
    });

    it('tells the till a result stored while the payment had no driver, once another instance adopts it', async () => {
      const gate = freezable(db);
      const a = await instance(payApi().client, gate.db);
      const b = await instance(payApi().client, db);
      const told: SessionUpdate[] = [];
      await b.subscribe('till-2', (u) => told.push(u));
      const started = await a.start('till-2', { cardSession: 'CSX', basket: BASKET, paymentId: 'orphan' });
      expect(started).toMatchObject({ phase: 'pending' });
      gate.freeze(); // A stops answering: its lease runs out
      expect((await webhook(b, succeededState(started.transactionId!))).status).toBe(204);
      await expect.poll(() => told.find((u) => u.paymentId === 'orphan' && u.phase === 'succeeded')).toBeDefined();
      expect(await b.get('till-2', { paymentId: 'orphan' })).toMatchObject({ phase: 'succeeded' });
      gate.thaw();
    });

    it(
      'repeats the same requestId when it takes over a checkout whose answer never came, and the stale owner calls ' +
        'nothing more',
      async () => {
        const gate = freezable(db);
        const first = payApi({ checkout: 'held' });
        const second = payApi();
        const a = await instance(first.client, gate.db);
        void a.start('till-3', { cardSession: 'CSY', basket: BASKET, paymentId: 'taken' }).catch(() => {});
        await expect.poll(() => first.checkouts.length).toBe(1);
        gate.freeze();
        const b = await instance(second.client, db);
        await expect.poll(() => second.checkouts.length).toBe(1);
        expect(second.checkouts[0]!.requestId).toBe(first.checkouts[0]!.requestId);
        expect((await webhook(b, succeededState('trx-CSY', second.checkouts[0]!.requestId))).status).toBe(204);
        await expect.poll(() => b.get('till-3', { paymentId: 'taken' }).then((v) => v.phase)).toBe('succeeded');
        const callsBefore = first.calls();
        gate.thaw();
        // the stale owner's /checkout answers late: its write of it is refused, and it lets the payment go
        first.answer();
        await expect.poll(() => a.inMemory).toBe(0);
        expect(first.calls()).toBe(callsBefore);
        const { rows } = await db.query<{ phase: string }>(
          "SELECT phase FROM cashdesk_payments WHERE payment_id = 'taken'",
        );
        expect(rows[0]).toMatchObject({ phase: 'succeeded' });
      },
    );

    const leaseOf = async (paymentId: string) =>
      (
        await db.query<{ active: boolean; owner: string | null; lease_until: Date | null }>(
          'SELECT active, owner, lease_until FROM cashdesk_payments WHERE payment_id = $1',
          [paymentId],
        )
      ).rows[0];

    it('gives up the lease of an ended payment its owner was killed holding before it let it go', async () => {
      const a = await instance(payApi().client, db);
      const started = await a.start('till-8', { cardSession: 'CSC', basket: BASKET, paymentId: 'killed-ended' });
      expect((await webhook(a, succeededState(started.transactionId!))).status).toBe(204);
      await expect
        .poll(() => leaseOf('killed-ended'), { timeout: 10_000 })
        .toMatchObject({ active: false, owner: null });
      // as a kill -9 leaves it: the final phase written, the lease still the dead owner's, expired
      await db.query(
        "UPDATE cashdesk_payments SET active = TRUE, owner = 'dead', lease_until = now() - interval '1 second' " +
          "WHERE payment_id = 'killed-ended'",
      );
      await instance(payApi().client, db);
      await expect
        .poll(() => leaseOf('killed-ended'), { timeout: 10_000 })
        .toMatchObject({ active: false, owner: null });
      expect((await leaseOf('killed-ended'))?.lease_until).toBeNull();
    });

    it('ends the lease of a payment whose owner was killed between its final write and its release', async () => {
      const a = await instance(payApi().client, db);
      const started = await a.start('till-9', { cardSession: 'CSD', basket: BASKET, paymentId: 'ended-unreleased' });
      expect((await webhook(a, succeededState(started.transactionId!))).status).toBe(204);
      await expect.poll(() => leaseOf('ended-unreleased'), { timeout: 10_000 }).toMatchObject({ active: false });
      // as a kill -9 leaves it: `active` false written, the lease still the dead owner's, expired
      await db.query(
        "UPDATE cashdesk_payments SET owner = 'dead', lease_until = now() - interval '1 second' " +
          "WHERE payment_id = 'ended-unreleased'",
      );
      await instance(payApi().client, db);
      await expect
        .poll(() => leaseOf('ended-unreleased'), { timeout: 10_000 })
        .toEqual({ active: false, owner: null, lease_until: null });
    });

    it('serves a till intent on the instance it reached while another instance drives the payment', async () => {
      const pay = payApi();
      const a = await instance(pay.client, db);
      const b = await instance(pay.client, db);
      const started = await a.start('till-4', { cardSession: 'CSZ', basket: BASKET, paymentId: 'handed' });
      expect((await webhook(a, succeededState(started.transactionId!))).status).toBe(204);
      await expect.poll(() => a.get('till-4', { paymentId: 'handed' }).then((v) => v.phase)).toBe('succeeded');
      expect(await b.cancel('till-4', { paymentId: 'handed' }).catch((e: { code?: string }) => e.code)).toBe(
        'SESSION_STATE',
      );
      expect((await b.get('till-4', { paymentId: 'handed' })).phase).toBe('succeeded');
    });

    it('holds no advisory lock once its payments are done', async () => {
      const pay = payApi();
      const a = await instance(pay.client, db);
      for (let i = 0; i < 5; i++)
        await a.start('till-5', { cardSession: `CL${i}`, basket: BASKET, paymentId: `l${i}` });
      const { rows } = await db.query<{ n: number }>(
        "SELECT count(*) AS n FROM pg_locks l JOIN pg_stat_activity s USING (pid) WHERE l.locktype = 'advisory' " +
          'AND s.application_name = $1',
        [applicationName],
      );
      expect(rows[0]!.n).toBe(0);
    });
  },
);
