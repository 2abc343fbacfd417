import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from '../../../../adapters/node/verifier.js';
import { paymentMigrations } from '../../../../src/cashdesk/payments/migrations.js';
import { reconcile } from '../../../../src/cashdesk/reconcile/reconcile.js';
import type { PayClientOptions } from '../../../../src/pay/options.js';
import { type Database, migrate, openDatabase } from '../../../../src/db/index.js';
import { demoConfig } from '../../../../src/demo.js';
import { createPayClient, type PayClient } from '../../../../src/pay/client.js';
import { testClock } from '../../../support/clock.js';
import { BASKET, PARTNER_ID, TOTAL } from '../../../support/pay-server.js';
import { FOREIGN_DIALECT_PAY, type PaySandbox, startDialectSandbox } from '../../pay/sandbox-harness.js';
import { writeKitRow } from './kit-rows.js';

const DIALECTS = [
  { name: 'kit' as const, paid: 'succeeded', created: 'created', notFound: 'NOT_FOUND', dialect: undefined },
  // The foreign dialect file maps no notFound code: its TRANSACTION_NOT_FOUND is a refusal like any other.
  {
    name: 'foreign' as const,
    paid: 'PAID',
    created: 'NEW',
    notFound: 'PAY_REFUSED',
    dialect: FOREIGN_DIALECT_PAY.dialect as PayClientOptions['dialect'],
  },
];

describe.each(DIALECTS)('reconcile against the sandbox in the $name dialect', (d) => {
  const clock = testClock('wall');
  let sb: PaySandbox;
  let db: Database;
  let client: PayClient;
  const verifier = createVerifier({ ...demoConfig.verifier, replay: false, lockout: false } as never);
  let n = 0;
  const id = (what: string) => `${what}-${d.name}-${++n}`;
  const period = () => ({ from: new Date(Date.now() - 3_600_000), to: new Date(Date.now() + 3_600_000) });

  beforeAll(async () => {
    sb = await startDialectSandbox(clock.now, d.name);
    await sb.sim.partner({ partnerId: PARTNER_ID, key: demoConfig.verifier.key, webhookUrl: null });
    db = await openDatabase();
    await migrate(db, 'cashdesk-payments', paymentMigrations);
    client = createPayClient({ baseUrl: sb.url, verifier, ...(d.dialect ? { dialect: d.dialect } : {}) });
  }, 120_000);
  afterAll(async () => {
    await sb?.close();
    await db?.close();
    await verifier.close();
  });

  /** A real invoice at the sandbox for a new card: what a till's /checkout made. */
  async function invoice(requestId: string) {
    const card = await sb.sim.issueCard({ walletPayIsDefault: true });
    const body = { requestId, cardSession: card.cardSession, ...BASKET, totalAmount: TOTAL };
    const answer = await client.checkout(body as never);
    return { card, transactionId: answer.transactionId };
  }

  /** Confirms in the app and waits (bounded) until the service says paid. */
  async function pay(transactionId: string | number) {
    await sb.sim.confirm(transactionId);
    for (let i = 0; i < 200; i++) {
      if ((await client.status({ transactionId })).statusClass === 'successful') return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('never paid');
  }

  /** The findings of a fresh comparison for one payment. */
  async function findings(paymentId: string, heal = false) {
    const report = await reconcile({ db, client, period: period(), heal, storeOf: (t) => `store-of-${t}` });
    return report.discrepancies.filter((x) => x.paymentId === paymentId);
  }

  it('finds nothing for a sale and a refund the kit recorded as the service did', async () => {
    const paymentId = id('sale');
    const { card, transactionId } = await invoice(paymentId);
    await pay(transactionId);
    await client.refund({ transactionId, refundId: `${paymentId}-r1`, amount: 1_000 });
    await writeKitRow(db, {
      tillId: 'till-1',
      paymentId,
      phase: 'succeeded',
      requestId: paymentId,
      cardSession: card.cardSession,
      transactions: [{ transactionId, status: d.paid, statusClass: 'successful' }],
      refunds: [{ refundId: `${paymentId}-r1`, transactionId, amount: 1_000, status: 'succeeded' }],
    });
    expect(await findings(paymentId)).toEqual([]);
  });

  it('finds paid_untold when the customer paid after the server died with the checkout sent', async () => {
    const paymentId = id('untold');
    const { card, transactionId } = await invoice(paymentId);
    await pay(transactionId);
    // The answer to /checkout was lost with the server: the row knows its requestId only (kit), or the invoice.
    const transactions =
      d.name === 'kit' ? [] : [{ transactionId, status: d.created, statusClass: 'transit' as const }];
    const phase = d.name === 'kit' ? 'unknown' : 'pending';
    await writeKitRow(db, {
      tillId: 'till-2',
      paymentId,
      phase,
      requestId: paymentId,
      cardSession: card.cardSession,
      transactions,
    });
    const [found, ...more] = await findings(paymentId);
    expect(more).toEqual([]);
    expect(found).toMatchObject({
      kind: 'paid_untold',
      tillId: 'till-2',
      store: 'store-of-till-2',
      transactionId: String(transactionId),
      kit: { phase },
      service: { status: d.paid, statusClass: 'successful', totalAmount: TOTAL },
      healed: false,
    });
  });

  it('heals paid_untold: the row becomes succeeded with an event for its till, and nothing is left', async () => {
    const paymentId = id('heal');
    const { card, transactionId } = await invoice(paymentId);
    await pay(transactionId);
    const transactions = [{ transactionId, status: d.created, statusClass: 'transit' as const }];
    await writeKitRow(db, {
      tillId: 'till-1',
      paymentId,
      phase: 'pending',
      requestId: paymentId,
      cardSession: card.cardSession,
      transactions,
    });
    expect(await findings(paymentId, true)).toMatchObject([{ kind: 'paid_untold', healed: true }]);
    const { rows } = await db.query<{ phase: string; view: { phase: string; status: string } }>(
      'SELECT phase, view FROM cashdesk_payments WHERE till_id = $1 AND payment_id = $2',
      ['till-1', paymentId],
    );
    expect(rows[0]).toMatchObject({ phase: 'succeeded', view: { phase: 'succeeded', status: d.paid } });
    const events = await db.query<{ body: { phase: string; seq: number } }>(
      'SELECT body FROM cashdesk_payment_events WHERE till_id = $1 AND payment_id = $2 ORDER BY seq',
      ['till-1', paymentId],
    );
    expect(events.rows.at(-1)!.body).toMatchObject({ phase: 'succeeded', seq: 1 });
    expect(await findings(paymentId)).toEqual([]);
  });

  it('finds refund_unknown when another client refunded at the Pay API', async () => {
    const paymentId = id('foreign-refund');
    const { card, transactionId } = await invoice(paymentId);
    await pay(transactionId);
    await writeKitRow(db, {
      tillId: 'till-1',
      paymentId,
      phase: 'succeeded',
      requestId: paymentId,
      cardSession: card.cardSession,
      transactions: [{ transactionId, status: d.paid, statusClass: 'successful' }],
    });
    await client.refund({ transactionId, refundId: 'by-another-system', amount: 2_500 });
    expect(await findings(paymentId)).toMatchObject([
      { kind: 'refund_unknown', kit: { refundedAmount: 0 }, service: { refundedAmount: 2_500 } },
    ]);
  });

  it('finds late_success when an abandoned payment whose cancel failed is paid', async () => {
    const paymentId = id('late');
    const { card, transactionId } = await invoice(paymentId);
    await writeKitRow(db, {
      tillId: 'till-2',
      paymentId,
      phase: 'abandoned',
      requestId: paymentId,
      cardSession: card.cardSession,
      transactions: [{ transactionId, status: d.created, statusClass: 'transit' }],
    });
    await pay(transactionId);
    expect(await findings(paymentId, true)).toMatchObject([
      { kind: 'late_success', service: { statusClass: 'successful' }, healed: false },
    ]);
  });

  it('finds status_unreadable when the service does not know the transaction', async () => {
    const paymentId = id('unknown-trx');
    await writeKitRow(db, {
      tillId: 'till-1',
      paymentId,
      phase: 'pending',
      requestId: paymentId,
      cardSession: 'nosuchsession',
      transactions: [{ transactionId: d.name === 'kit' ? 'trx_missing' : 987_654_321, status: d.created }],
    });
    expect(await findings(paymentId)).toMatchObject([{ kind: 'status_unreadable', service: { error: d.notFound } }]);
  });
});
