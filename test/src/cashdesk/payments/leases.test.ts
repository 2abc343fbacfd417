import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Leases } from '../../../../src/cashdesk/payments/leases.js';
import { paymentMigrations } from '../../../../src/cashdesk/payments/migrations.js';
import type { PaymentRecord } from '../../../../src/cashdesk/payments/record.js';
import { PaymentStore, type PaymentWrite } from '../../../../src/cashdesk/payments/store.js';
import { migrate, type Database } from '../../../../src/db/index.js';
import { databaseCases } from '../../../support/databases.js';

function record(paymentId: string, phase: PaymentRecord['view']['phase'] = 'pending'): PaymentRecord {
  const basket = {
    items: [{ name: 'Tea', article: 'T-1', measure: 'PIECE' as const, quantity: 1, price: 9_000 }],
    discountAmount: 0,
  };
  return {
    tillId: 'till-1',
    paymentId,
    receiptSent: false,
    createdAt: new Date('2026-11-27T10:00:00.000Z'),
    snapshot: {
      phase,
      stage: 'checkout',
      requestId: `req-${paymentId}`,
      cardSession: 'AB12CD34',
      basket,
      providers: [],
      walletPayIsDefault: true,
      left: [],
    },
    view: {
      paymentId,
      phase,
      walletPayIsDefault: true,
      providers: [],
      totalAmount: 9_000,
      receiptSent: false,
      updatedAt: '2026-11-27T10:00:01.000Z',
    },
  };
}

const write = (r: PaymentRecord, epoch: number, active = true): PaymentWrite => ({
  record: r,
  epoch,
  active,
  events: [],
});
const key = (paymentId: string) => ({ tillId: 'till-1', paymentId });

describe.each(databaseCases('payment leases'))('Leases on $name', ({ open }) => {
  let db: Database;
  /** Two instances on one database; `a` inserts, and a lease of 1 ms has always expired by the next statement. */
  let a: { leases: Leases; store: PaymentStore };
  let b: { leases: Leases; store: PaymentStore };
  const instance = (owner: string, ttlMs: number) => ({
    leases: new Leases(db, { owner, ttlMs, alone: false }),
    store: new PaymentStore(db, { owner, ttlMs }),
  });
  const expire = (paymentId: string) =>
    db.query("UPDATE cashdesk_payments SET lease_until = now() - interval '1 second' WHERE payment_id = $1", [
      paymentId,
    ]);

  beforeAll(async () => {
    db = await open();
    await migrate(db, 'cashdesk-payments', paymentMigrations);
    a = instance('instance-a', 60_000);
    b = instance('instance-b', 60_000);
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  it('refuses a claim of a payment whose lease another instance holds', async () => {
    await a.store.insert(write(record('held'), 1));
    expect(await b.leases.claim(key('held'))).toBeUndefined();
  });

  it('takes over an expired lease with the next epoch', async () => {
    await a.store.insert(write(record('expired'), 1));
    await expire('expired');
    expect(await b.leases.claim(key('expired'))).toMatchObject({ owner: 'instance-b', epoch: 2 });
  });

  it('refuses every write of the stale owner once another instance took the payment over', async () => {
    await a.store.insert(write(record('stale'), 1));
    await expire('stale');
    await b.leases.claim(key('stale'));
    expect(await a.store.save(write(record('stale', 'succeeded'), 1))).toBe(false);
    expect(await a.leases.release(key('stale'), 1, false)).toBe(false);
    expect((await a.store.find(key('stale')))?.record.view.phase).toBe('pending');
  });

  it('extends its own lease under the same epoch, so its writes under way still hold', async () => {
    await a.store.insert(write(record('own'), 1));
    expect(await a.leases.claim(key('own'), 1)).toMatchObject({ owner: 'instance-a', epoch: 1 });
    expect(await a.store.save(write(record('own', 'succeeded'), 1))).toBe(true);
  });

  it(
    'takes a lease of its own anew, with the next epoch, for a payment it no ' +
      'longer drives (a release that failed)',
    async () => {
      await a.store.insert(write(record('mine'), 1));
      expect(await a.leases.claim(key('mine'))).toMatchObject({ owner: 'instance-a', epoch: 2 });
      expect(await a.store.save(write(record('mine', 'succeeded'), 1))).toBe(false);
    },
  );

  it('adopts only payments that need a driver and whose lease expired, never its own', async () => {
    const fresh = instance('instance-c', 60_000);
    await db.query('UPDATE cashdesk_payments SET active = FALSE');
    await a.store.insert(write(record('orphan'), 1));
    await a.store.insert(write(record('at-rest', 'succeeded'), 1, false));
    await a.store.insert(write(record('alive'), 1));
    await expire('orphan');
    await expire('at-rest');
    expect((await fresh.leases.claimExpired(50)).map((s) => s.record.paymentId)).toEqual(['orphan']);
    await expire('orphan');
    expect(await fresh.leases.claimExpired(50)).toEqual([]);
  });

  it('ends the expired lease of an ended payment whose owner never let it go, and fences that owner', async () => {
    await a.store.insert(write(record('ended-held'), 1));
    // its last write says nothing more is to drive; the owner dies (or loses the database) before its release
    expect(await a.store.save(write(record('ended-held', 'succeeded'), 1, false))).toBe(true);
    expect(await b.leases.endExpired()).not.toContainEqual(key('ended-held'));
    await expire('ended-held');
    expect(await b.leases.endExpired()).toContainEqual(key('ended-held'));
    expect(await a.store.find(key('ended-held'))).toMatchObject({ owner: null, epoch: 2 });
    expect(await a.store.save(write(record('ended-held', 'succeeded'), 1, false))).toBe(false);
  });

  it('hands a payment over: the owner releases what another instance wants, and that one claims it', async () => {
    await a.store.insert(write(record('wanted'), 1));
    await b.leases.want(key('wanted'));
    expect((await a.leases.renew()).find((l) => l.paymentId === 'wanted')).toMatchObject({ epoch: 1, wanted: true });
    expect(await a.leases.release(key('wanted'), 1, true)).toBe(true);
    expect(await b.leases.claim(key('wanted'))).toMatchObject({ owner: 'instance-b', epoch: 2 });
  });

  it('claims a batch of orphans with no row taken twice when two instances adopt at once', async () => {
    await db.query('UPDATE cashdesk_payments SET active = FALSE');
    for (let i = 0; i < 30; i++) await a.store.insert(write(record(`batch-${i}`), 1));
    await db.query(
      "UPDATE cashdesk_payments SET lease_until = now() - interval '1 second' WHERE payment_id LIKE 'batch-%'",
    );
    const [first, second] = await Promise.all([
      instance('instance-d', 60_000).leases.claimExpired(20),
      instance('instance-e', 60_000).leases.claimExpired(20),
    ]);
    const ids = [...first!, ...second!].map((s) => s.record.paymentId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(30);
  });
});
