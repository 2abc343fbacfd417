import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CashDeskPayments } from '../../../../src/cashdesk/payments/index.js';
import { StartPayment, type SessionUpdate } from '../../../../src/contracts/cashdesk-payments.js';
import { openDatabase, type Database } from '../../../../src/db/index.js';
import { demoConfig } from '../../../../src/demo.js';
import { createVerifier } from '../../../../src/entries/index.js';
import { createPayClient } from '../../../../src/entries/pay.js';
import { BASKET } from '../../../support/pay-server.js';
import { paySandboxCases, type PaySandbox } from '../../pay/sandbox-harness.js';

const [pglite] = paySandboxCases('payments eviction');

describe('CashDeskPayments: ended payments leave memory', () => {
  const verifier = createVerifier({ ...demoConfig.verifier, backend: 'wasm' });
  const updates: SessionUpdate[] = [];
  let sb: PaySandbox;
  let db: Database;
  let payments: CashDeskPayments;
  beforeAll(async () => {
    sb = await pglite!.start(Date.now);
    db = await openDatabase();
    payments = new CashDeskPayments({
      client: createPayClient({ baseUrl: sb.url, verifier }),
      db,
      pollIntervalMs: 20,
      verify: async (fullBarcode) => verifier.barcodeVerify(fullBarcode),
    });
    await payments.init();
    await payments.subscribe('till-1', (u) => updates.push(u));
  }, 120_000);
  afterAll(async () => {
    await payments?.close();
    await db?.close();
    await sb?.close();
    await verifier.close();
  });

  const start = async (paymentId: string, walletPayIsDefault: boolean) => {
    const card = await sb.sim.issueCard({ walletPayIsDefault });
    // As a transport hands it over: validated, defaults filled.
    return payments.start('till-1', StartPayment.parse({ cardSession: card.cardSession, basket: BASKET, paymentId }));
  };

  it(
    'forgets a paid sale once its receipt went out; pay.get reads it from its ' + 'row, and a refund drives it again',
    async () => {
      const view = await start('evict-1', true);
      expect(payments.inMemory).toBe(1);
      await sb.sim.confirm(view.transactionId!);
      await expect.poll(() => payments.get('till-1', { paymentId: 'evict-1' }).then((v) => v.phase)).toBe('succeeded');
      expect(payments.inMemory).toBe(1); // paid, receipt not sent yet: still the till's business

      expect(await payments.receipt('till-1', { paymentId: 'evict-1', receipt: { fiscalSign: '1' } })).toMatchObject({
        phase: 'succeeded',
        receiptSent: true,
      });
      expect(payments.inMemory).toBe(0);
      expect(await payments.get('till-1', { paymentId: 'evict-1' })).toMatchObject({
        phase: 'succeeded',
        receiptSent: true,
        transactionId: view.transactionId,
      });

      // A partial refund: still paid (the rest can be refunded), and at rest again.
      expect(await payments.refund('till-1', { paymentId: 'evict-1', refundId: 'r-1', amount: 1_000 })).toMatchObject({
        phase: 'succeeded',
        refundedAmount: 1_000,
      });
      expect(payments.inMemory).toBe(0);
      expect(await payments.get('till-1', { paymentId: 'evict-1' })).toMatchObject({
        phase: 'succeeded',
        refundedAmount: 1_000,
      });
      expect((await sb.sim.transaction(view.transactionId!)).refundedAmount).toBe(1_000);
    },
  );

  it('forgets an abandoned payment with no invoice at once', async () => {
    expect(await start('evict-2', false)).toMatchObject({ phase: 'offered' });
    expect(payments.inMemory).toBe(1);
    expect(await payments.abandon('till-1', { paymentId: 'evict-2' })).toMatchObject({ phase: 'abandoned' });
    expect(payments.inMemory).toBe(0);
    expect((await payments.list('till-1', { phase: 'abandoned' })).payments).toEqual([
      expect.objectContaining({ paymentId: 'evict-2' }),
    ]);
  });

  it('keeps an abandoned payment whose cancelled invoice the bank paid late until that is refunded', async () => {
    await sb.sim.bank('approve', 3_600_000, 0); // received at once, answered in 1 h (3.6 s here): after the cancel
    try {
      const view = await start('evict-3', true);
      await sb.sim.confirm(view.transactionId!);
      expect(await payments.abandon('till-1', { paymentId: 'evict-3' })).toMatchObject({
        phase: 'abandoned',
        status: 'cancelled',
      });
      expect(payments.inMemory).toBe(1);
      await expect.poll(() => updates.some((u) => u.paymentId === 'evict-3' && u.event === 'lateResult')).toBe(true);
      expect(payments.inMemory).toBe(1); // the customer's money: the payment stays the till's business
      await payments.refund('till-1', { paymentId: 'evict-3', refundId: 'late-3', transactionId: view.transactionId });
      await expect.poll(() => payments.inMemory).toBe(0);
      expect(await payments.get('till-1', { paymentId: 'evict-3' })).toMatchObject({ phase: 'abandoned' });
    } finally {
      await sb.sim.bank('approve', 0);
    }
  });
});
