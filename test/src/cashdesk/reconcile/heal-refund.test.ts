import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentView } from '../../../../src/contracts/cashdesk-payments.js';
import type { TransactionAnswer } from '../../../../src/contracts/pay/answers.js';
import { dayClose } from '../../../../src/cashdesk/day-close/day-close.js';
import { paymentMigrations } from '../../../../src/cashdesk/payments/migrations.js';
import { reconcile } from '../../../../src/cashdesk/reconcile/reconcile.js';
import { type Database, migrate } from '../../../../src/db/index.js';
import type { PayClient } from '../../../../src/pay/client.js';
import type { PaymentSessionSnapshot } from '../../../../src/pay/session-types.js';
import { databaseCases } from '../../../support/databases.js';
import { TOTAL } from '../../../support/pay-server.js';
import { writeKitRow } from './kit-rows.js';

const HOUR = 3_600_000;

/** A service that answers every transaction paid, refunded as `refunded` says, last changed at `updatedAt`. */
function service(refunded: Map<string, { amount: number; updatedAt?: string }>): PayClient {
  return {
    async status({ transactionId }: { transactionId: string }): Promise<TransactionAnswer> {
      const r = refunded.get(String(transactionId));
      return {
        transactionId,
        status: 'succeeded',
        statusClass: 'successful',
        totalAmount: TOTAL,
        refundedAmount: r?.amount ?? 0,
        ...(r?.updatedAt ? { updatedAt: r.updatedAt } : {}),
      };
    },
  } as unknown as PayClient;
}

describe.each(databaseCases('healing refund_unknown'))('healRefundUnknown on $name', (c) => {
  let db: Database;
  const refunded = new Map<string, { amount: number; updatedAt?: string }>();
  const client = service(refunded);
  const period = () => ({ from: new Date(Date.now() - 3 * HOUR), to: new Date(Date.now() + HOUR) });
  let n = 0;

  beforeAll(async () => {
    db = await c.open();
    await migrate(db, 'cashdesk-payments', paymentMigrations);
  });
  afterAll(async () => {
    await db?.close();
  });

  /** A paid sale the kit recorded, with the kit's own refunds; answers its ids. */
  async function sale(refunds: PaymentView['refunds'] = [], createdAt = new Date(), tillId = 'till-1') {
    const paymentId = `p-${c.name}-${++n}`;
    const transactionId = `tx-${paymentId}`;
    await writeKitRow(db, {
      tillId,
      paymentId,
      phase: 'succeeded',
      requestId: paymentId,
      cardSession: 'cs',
      transactions: [{ transactionId, status: 'succeeded', statusClass: 'successful' }],
      refunds: refunds.map((r) => ({ ...r, transactionId })),
      createdAt,
    });
    return { paymentId, transactionId };
  }

  async function findings(paymentId: string, heal = false) {
    const report = await reconcile({ db, client, period: period(), heal });
    return report.discrepancies.filter((d) => d.paymentId === paymentId);
  }

  async function row(paymentId: string) {
    const { rows } = await db.query<{ phase: string; view: PaymentView; snapshot: PaymentSessionSnapshot }>(
      'SELECT phase, view, snapshot FROM cashdesk_payments WHERE payment_id = $1',
      [paymentId],
    );
    return rows[0]!;
  }

  it('records the refund as made by the service, in the view, the ledger and an event for the till', async () => {
    const { paymentId, transactionId } = await sale();
    refunded.set(transactionId, { amount: 2_500 });
    expect(await findings(paymentId, true)).toMatchObject([{ kind: 'refund_unknown', healed: true }]);
    const { view, snapshot } = await row(paymentId);
    const refundId = `service-${transactionId}-2500`;
    const recorded = { refundId, transactionId, amount: 2_500, status: 'succeeded', origin: 'service' };
    expect(view).toMatchObject({ phase: 'succeeded', refundedAmount: 2_500, refunds: [recorded] });
    expect(view.transactions).toMatchObject([{ transactionId, refundedAmount: 2_500 }]);
    expect(snapshot.refunds).toMatchObject([{ refundId, state: 'succeeded', origin: 'service', amount: 2_500 }]);
    const { rows } = await db.query<{ body: Record<string, unknown> }>(
      'SELECT body FROM cashdesk_payment_events WHERE till_id = $1 AND payment_id = $2 ORDER BY seq',
      ['till-1', paymentId],
    );
    expect(rows.at(-1)!.body).toMatchObject({ event: 'refundUpdated', refund: recorded, seq: 1 });
  });

  it('leaves nothing to find after the heal', async () => {
    const { paymentId, transactionId } = await sale();
    refunded.set(transactionId, { amount: 2_500 });
    await findings(paymentId, true);
    expect(await findings(paymentId)).toEqual([]);
  });

  it("records only what the kit's own refunds do not account for", async () => {
    const { paymentId, transactionId } = await sale([
      { refundId: 'r-1', transactionId: '', amount: 1_000, status: 'succeeded' },
    ]);
    refunded.set(transactionId, { amount: 3_500 });
    await findings(paymentId, true);
    const { view } = await row(paymentId);
    expect(view.refunds?.map((r) => [r.refundId, r.amount, r.origin])).toEqual([
      ['r-1', 1_000, undefined],
      [`service-${transactionId}-3500`, 2_500, 'service'],
    ]);
    expect(view.refundedAmount).toBe(3_500);
  });

  it('ends the payment as refunded when the service gave all of it back', async () => {
    const { paymentId, transactionId } = await sale();
    refunded.set(transactionId, { amount: TOTAL });
    await findings(paymentId, true);
    expect(await row(paymentId)).toMatchObject({ phase: 'refunded', snapshot: { phase: 'refunded' } });
  });

  it('leaves it unhealed while a live instance holds the payment', async () => {
    const { paymentId, transactionId } = await sale();
    await db.query(
      "UPDATE cashdesk_payments SET owner = 'live', lease_until = now() + interval '1 hour' WHERE payment_id = $1",
      [paymentId],
    );
    refunded.set(transactionId, { amount: 2_500 });
    expect(await findings(paymentId, true)).toMatchObject([{ kind: 'refund_unknown', healed: false }]);
    expect((await row(paymentId)).view.refunds).toEqual([]);
  });

  it('has the day-close count it on the day the service made it, not the day it was healed', async () => {
    const now = Date.now();
    const { paymentId, transactionId } = await sale([], new Date(now - 2 * HOUR), 'till-day');
    refunded.set(transactionId, { amount: 2_500, updatedAt: new Date(now - HOUR).toISOString() });
    await findings(paymentId, true);
    const refundedIn = async (from: number, to: number) => {
      const report = await dayClose({ db, date: 'd', tz: 'UTC', period: { from: new Date(from), to: new Date(to) } });
      return report.tills.find((t) => t.tillId === 'till-day')?.refunded ?? 0;
    };
    expect(await refundedIn(now - 3 * HOUR, now - HOUR / 2)).toBe(2_500);
    expect(await refundedIn(now - HOUR / 2, now + HOUR)).toBe(0);
  });
});
