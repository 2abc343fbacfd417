import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BASKET, startPayServer, TOTAL, type PayServer, type Till } from '../../support/pay-server.js';
import { paySandboxCases, type PaySandbox } from '../../src/pay/sandbox-harness.js';
import { testClock } from '../../support/clock.js';

const [pglite] = paySandboxCases('bridge refunds');
const SMALLER = { items: [{ name: 'Молоко 1 л', article: 'MILK-1', quantity: 2, price: 8_990 }], discountAmount: 0 };

describe('bridge pay.refund, receipts after refunds, and late successes', () => {
  const clock = testClock('wall');
  let sb: PaySandbox;
  let pay: PayServer;
  let till: Till;
  let n = 0;
  beforeAll(async () => {
    sb = await pglite!.start(clock.now);
    pay = await startPayServer(sb, { webhook: true, clock });
    till = await pay.connect();
  }, 120_000);
  afterAll(async () => {
    await pay?.close();
    await sb?.close();
  });
  beforeEach(async () => {
    await sb.sim.bank('approve', 0);
  });

  /** A payment paid through the bridge. */
  async function paid() {
    const card = await sb.sim.issueCard({ walletPayIsDefault: true });
    const paymentId = `refund-${++n}`;
    const view = await till.call('pay.start', { fullBarcode: card.barcode, basket: BASKET, paymentId });
    await sb.sim.confirm(view.transactionId);
    await till.until((u) => u.paymentId === paymentId && u.phase === 'succeeded');
    return { paymentId, transactionId: view.transactionId as string };
  }

  it('answers a repeated refundId as the first time, refunding once', async () => {
    const { paymentId, transactionId } = await paid();
    const first = await till.call('pay.refund', { paymentId, refundId: 'r-same', amount: 1_000 });
    expect(first).toMatchObject({
      phase: 'succeeded',
      refundedAmount: 1_000,
      refunds: [{ refundId: 'r-same', status: 'succeeded', amount: 1_000 }],
    });
    expect(await till.call('pay.refund', { paymentId, refundId: 'r-same', amount: 1_000 })).toEqual(first);
    expect((await sb.sim.transaction(transactionId)).refundedAmount).toBe(1_000);
  });

  it('refunds in parts until the paid amount is used up, and only then is refunded', async () => {
    const { paymentId } = await paid();
    expect(await till.call('pay.refund', { paymentId, refundId: 'part-1', amount: 1_000 })).toMatchObject({
      phase: 'succeeded',
      refundedAmount: 1_000,
    });
    expect(await till.call('pay.refund', { paymentId, refundId: 'part-2' })).toMatchObject({
      phase: 'refunded',
      refundedAmount: TOTAL,
    });
    expect(await till.call('pay.get', { paymentId })).toMatchObject({
      phase: 'refunded',
      transactions: [expect.objectContaining({ current: true, refundedAmount: TOTAL })],
    });
  });

  it('tells the till of each refund as refundUpdated', async () => {
    const { paymentId } = await paid();
    await till.call('pay.refund', { paymentId, refundId: 'told-1', amount: 500 });
    expect(await till.until((u) => u.paymentId === paymentId && u.event === 'refundUpdated')).toMatchObject({
      refund: { refundId: 'told-1', amount: 500, status: 'succeeded' },
    });
  });

  it('sends a receipt after a refund', async () => {
    const { paymentId } = await paid();
    await till.call('pay.refund', { paymentId, refundId: 'before-receipt' });
    expect(await till.call('pay.receipt', { paymentId, receipt: { fiscalSign: '1', total: TOTAL } })).toMatchObject({
      phase: 'refunded',
      receiptSent: true,
    });
  });

  it("refuses a refund of a transaction that is not the payment's as UNKNOWN_TRANSACTION", async () => {
    const { paymentId } = await paid();
    const other = await paid();
    await expect(
      till.call('pay.refund', { paymentId, refundId: 'alien', transactionId: other.transactionId }),
    ).rejects.toMatchObject({ rpcCode: -32011, code: 'UNKNOWN_TRANSACTION' });
  });

  it('lists a replaced invoice paid late among the transactions, and refunds it by its transactionId', async () => {
    await sb.sim.bank('approve', 3_600_000, 0); // received at once, answered in 1 h (3.6 s here): after the cancel
    const card = await sb.sim.issueCard({ walletPayIsDefault: true });
    const paymentId = `refund-${++n}`;
    const first = await till.call('pay.start', { fullBarcode: card.barcode, basket: BASKET, paymentId });
    await sb.sim.confirm(first.transactionId);
    const replaced = await till.call('pay.changeBasket', { paymentId, basket: SMALLER });
    const late = await till.until((u) => u.paymentId === paymentId && u.event === 'lateResult');
    expect(late).toMatchObject({ transactionId: first.transactionId, status: 'succeeded' });
    expect((await till.call('pay.get', { paymentId })).transactions).toEqual([
      expect.objectContaining({
        transactionId: first.transactionId,
        status: 'succeeded',
        current: false,
        refundedAmount: 0,
      }),
      expect.objectContaining({ transactionId: replaced.transactionId, current: true }),
    ]);
    const refunded = await till.call('pay.refund', {
      paymentId,
      refundId: 'late-1',
      transactionId: first.transactionId,
    });
    expect(refunded.transactions[0]).toMatchObject({ transactionId: first.transactionId, refundedAmount: TOTAL });
    expect(refunded.phase).toBe('pending');
    expect((await sb.sim.transaction(first.transactionId)).refundedAmount).toBe(TOTAL);
  });

  it("tells a till that reconnects of an abandoned payment's late success not yet refunded", async () => {
    await sb.sim.bank('approve', 3_600_000, 0);
    const card = await sb.sim.issueCard({ walletPayIsDefault: true });
    const paymentId = `refund-${++n}`;
    const view = await till.call('pay.start', { fullBarcode: card.barcode, basket: BASKET, paymentId });
    await sb.sim.confirm(view.transactionId);
    expect(await till.call('pay.abandon', { paymentId })).toMatchObject({ phase: 'abandoned' });
    await till.until((u) => u.paymentId === paymentId && u.event === 'lateResult');
    const again = await pay.connect();
    expect(await again.until((u) => u.paymentId === paymentId)).toMatchObject({
      phase: 'abandoned',
      event: 'lateResult',
      transactionId: view.transactionId,
      status: 'succeeded',
    });
  });
});
