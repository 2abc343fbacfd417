import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from '../../../../adapters/node/verifier.js';
import { dayPeriod } from '../../../../src/cashdesk/day-close/day.js';
import { dayClose, dayCloseCsv } from '../../../../src/cashdesk/day-close/day-close.js';
import { paymentMigrations } from '../../../../src/cashdesk/payments/migrations.js';
import { type Database, migrate, openDatabase } from '../../../../src/db/index.js';
import { demoConfig } from '../../../../src/demo.js';
import { createPayClient, type PayClient } from '../../../../src/pay/client.js';
import { testClock } from '../../../support/clock.js';
import { BASKET, PARTNER_ID, TOTAL } from '../../../support/pay-server.js';
import { type PaySandbox, startDialectSandbox } from '../../pay/sandbox-harness.js';
import { writeKitRow } from '../reconcile/kit-rows.js';

const STORES: Record<string, string> = { 'till-a': 'north', 'till-b': 'north', 'till-c': 'south' };

describe('dayClose', () => {
  const clock = testClock('wall');
  let sb: PaySandbox;
  let db: Database;
  let client: PayClient;
  const verifier = createVerifier({ ...demoConfig.verifier, replay: false, lockout: false } as never);

  beforeAll(async () => {
    sb = await startDialectSandbox(clock.now, 'kit');
    await sb.sim.partner({ partnerId: PARTNER_ID, key: demoConfig.verifier.key, webhookUrl: null });
    db = await openDatabase();
    await migrate(db, 'cashdesk-payments', paymentMigrations);
    client = createPayClient({ baseUrl: sb.url, verifier });
  }, 120_000);
  afterAll(async () => {
    await sb?.close();
    await db?.close();
    await verifier.close();
  });

  /** A paid invoice at the sandbox. */
  async function paid(requestId: string) {
    const card = await sb.sim.issueCard({ walletPayIsDefault: true });
    const { transactionId } = await client.checkout({
      requestId,
      cardSession: card.cardSession,
      ...BASKET,
      totalAmount: TOTAL,
    } as never);
    await sb.sim.confirm(transactionId);
    for (let i = 0; i < 200 && (await client.status({ transactionId })).statusClass !== 'successful'; i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    return { card, transactionId };
  }

  it("totals each till, store and the day as the service's records do (late successes, refunds)", async () => {
    const sale = await paid('dc-sale');
    await writeKitRow(db, {
      tillId: 'till-a',
      paymentId: 'dc-sale',
      phase: 'succeeded',
      requestId: 'dc-sale',
      cardSession: sale.card.cardSession,
      transactions: [{ transactionId: sale.transactionId, status: 'succeeded', statusClass: 'successful' }],
      events: [
        { phase: 'succeeded', transactionId: sale.transactionId, status: 'succeeded', statusClass: 'successful' },
      ],
    });
    const refunded = await paid('dc-refunded');
    await client.refund({ transactionId: refunded.transactionId, refundId: 'dc-r1', amount: 5_000 });
    const refund = { refundId: 'dc-r1', transactionId: refunded.transactionId, amount: 5_000 };
    await writeKitRow(db, {
      tillId: 'till-b',
      paymentId: 'dc-refunded',
      phase: 'succeeded',
      requestId: 'dc-refunded',
      cardSession: refunded.card.cardSession,
      transactions: [{ transactionId: refunded.transactionId, status: 'succeeded', statusClass: 'successful' }],
      refunds: [{ ...refund, status: 'succeeded' }],
      events: [
        { phase: 'succeeded', transactionId: refunded.transactionId, status: 'succeeded', statusClass: 'successful' },
        { phase: 'succeeded', event: 'refundUpdated', refund: { ...refund, status: 'pending' } },
        { phase: 'succeeded', event: 'refundUpdated', refund: { ...refund, status: 'succeeded' } },
      ],
    });
    const late = await paid('dc-late');
    const lateTrx = { transactionId: late.transactionId, status: 'succeeded', statusClass: 'successful' as const };
    await writeKitRow(db, {
      tillId: 'till-c',
      paymentId: 'dc-late',
      phase: 'abandoned',
      requestId: 'dc-late',
      cardSession: late.card.cardSession,
      transactions: [lateTrx],
      events: [{ phase: 'abandoned' }, { phase: 'abandoned', event: 'lateResult', ...lateTrx }],
    });
    const service = await Promise.all(
      [sale, refunded, late].map(async ({ transactionId }) => client.status({ transactionId })),
    );
    const servicePaid = service.reduce((sum, s) => sum + (s.totalAmount ?? 0), 0);
    const serviceRefunded = service.reduce((sum, s) => sum + (s.refundedAmount ?? 0), 0);

    // The day the events were written on, in the database's clock (a run across midnight stays right).
    const { rows } = await db.query<{ day: string }>("SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day");
    const today = rows[0]!.day;
    const report = await dayClose({
      db,
      date: today,
      tz: 'UTC',
      period: dayPeriod(today, 'UTC'),
      storeOf: (t) => STORES[t] ?? null,
    });
    expect(report.totals).toEqual({
      payments: 3,
      paid: servicePaid,
      refunded: serviceRefunded,
      net: servicePaid - serviceRefunded,
    });
    expect(report.tills).toEqual([
      { tillId: 'till-a', store: 'north', payments: 1, paid: TOTAL, refunded: 0, net: TOTAL },
      { tillId: 'till-b', store: 'north', payments: 1, paid: TOTAL, refunded: 5_000, net: TOTAL - 5_000 },
      { tillId: 'till-c', store: 'south', payments: 1, paid: TOTAL, refunded: 0, net: TOTAL },
    ]);
    expect(report.stores).toEqual([
      { store: 'north', payments: 2, paid: 2 * TOTAL, refunded: 5_000, net: 2 * TOTAL - 5_000 },
      { store: 'south', payments: 1, paid: TOTAL, refunded: 0, net: TOTAL },
    ]);
    expect(dayCloseCsv(report).split('\n')).toEqual([
      'date,tz,tillId,store,payments,paid,refunded,net',
      `${today},UTC,till-a,north,1,${TOTAL},0,${TOTAL}`,
      `${today},UTC,till-b,north,1,${TOTAL},5000,${TOTAL - 5_000}`,
      `${today},UTC,till-c,south,1,${TOTAL},0,${TOTAL}`,
      '',
    ]);
  });

  it('counts nothing on another day', async () => {
    const report = await dayClose({ db, date: '2020-01-01', tz: 'UTC', period: dayPeriod('2020-01-01', 'UTC') });
    expect(report).toMatchObject({ tills: [], stores: [], totals: { payments: 0, paid: 0, refunded: 0, net: 0 } });
  });
});
