import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from '../../../../adapters/node/verifier.js';
import { paymentMigrations } from '../../../../src/cashdesk/payments/migrations.js';
import { BackgroundReconciliation, reconcileMigrations } from '../../../../src/cashdesk/reconcile/background.js';
import type { Discrepancy } from '../../../../src/cashdesk/reconcile/report.js';
import { type Database, migrate, openDatabase } from '../../../../src/db/index.js';
import { demoConfig } from '../../../../src/demo.js';
import { createPayClient, type PayClient } from '../../../../src/pay/client.js';
import { testClock } from '../../../support/clock.js';
import { BASKET, PARTNER_ID, TOTAL } from '../../../support/pay-server.js';
import { type PaySandbox, startDialectSandbox } from '../../pay/sandbox-harness.js';
import { writeKitRow } from './kit-rows.js';

describe('BackgroundReconciliation', () => {
  const clock = testClock('wall');
  let sb: PaySandbox;
  let db: Database;
  let client: PayClient;
  let asked = 0;
  const verifier = createVerifier({ ...demoConfig.verifier, replay: false, lockout: false } as never);

  const errors: unknown[] = [];

  /** An instance of a chain (its looks made by the test, not its timer): what it warned of, the counts given. */
  function instance(intervalMs: number) {
    const warned: Discrepancy[] = [];
    const seen: Array<Record<string, number>> = [];
    const background = new BackgroundReconciliation({
      db,
      client,
      intervalMs,
      lookbackMs: 3_600_000,
      storeOf: (tillId) => `store-of-${tillId}`,
      onNew: (d) => warned.push(d),
      onCounts: (counts) => seen.push({ ...counts }),
      onError: (error) => errors.push(error),
    });
    return { background, warned, seen };
  }

  /** An abandoned payment the customer paid all the same: a late success. */
  async function lateSuccess(paymentId: string) {
    const card = await sb.sim.issueCard({ walletPayIsDefault: true });
    const body = { requestId: paymentId, cardSession: card.cardSession, ...BASKET, totalAmount: TOTAL };
    const { transactionId } = await client.checkout(body as never);
    await writeKitRow(db, {
      tillId: 'till-1',
      paymentId,
      phase: 'abandoned',
      requestId: paymentId,
      cardSession: card.cardSession,
      transactions: [{ transactionId, status: 'created', statusClass: 'transit' }],
    });
    await sb.sim.confirm(transactionId);
    for (let i = 0; i < 200; i++) {
      if ((await client.status({ transactionId })).statusClass === 'successful') return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('never paid');
  }

  beforeAll(async () => {
    sb = await startDialectSandbox(clock.now, 'kit');
    await sb.sim.partner({ partnerId: PARTNER_ID, key: demoConfig.verifier.key, webhookUrl: null });
    db = await openDatabase();
    await migrate(db, 'cashdesk-payments', paymentMigrations);
    await migrate(db, 'cashdesk-reconciliation', reconcileMigrations);
    const inner = createPayClient({ baseUrl: sb.url, verifier });
    // Counts the /status calls: each run asks once per transaction.
    const status: PayClient['status'] = (...args) => {
      asked++;
      return inner.status(...args);
    };
    client = new Proxy(inner, {
      get: (target, name) => {
        if (name === 'status') return status;
        const value = Reflect.get(target, name, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    await lateSuccess('late-1');
  }, 120_000);
  afterAll(async () => {
    await sb?.close();
    await db?.close();
    await verifier.close();
  });

  it('runs on one instance of a chain at a time, and every instance reads its report', async () => {
    const a = instance(3_600_000);
    const b = instance(3_600_000);
    asked = 0;
    await a.background.tick();
    await b.background.tick();
    expect(asked).toBe(1);
    for (const i of [a, b]) {
      expect(i.background.last()?.discrepancies).toMatchObject([
        { kind: 'late_success', paymentId: 'late-1', store: 'store-of-till-1' },
      ]);
      expect(i.seen.at(-1)).toEqual({ late_success: 1 });
    }
    expect([...a.warned, ...b.warned].map((d) => d.paymentId)).toEqual(['late-1']);
    expect(errors).toEqual([]);
  });

  it('warns once per new discrepancy, not again on later runs', async () => {
    // An interval of a microsecond: each look finds the last run's claim over and runs again.
    const c = instance(0.001);
    // The interval of the first test's run over.
    await db.query('UPDATE cashdesk_reconciliation SET claimed_until = now()');
    await c.background.tick();
    expect(c.warned).toEqual([]);
    await lateSuccess('late-2');
    await c.background.tick();
    await c.background.tick();
    expect(c.warned.map((d) => [d.kind, d.paymentId])).toEqual([['late_success', 'late-2']]);
    expect(c.seen.at(-1)).toEqual({ late_success: 2 });
    expect(errors).toEqual([]);
  });
});
