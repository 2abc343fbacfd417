import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { demoConfig } from '../../../src/demo.js';
import { BASKET, PARTNER_ID, startPayServer, type PayServer, type Till } from '../../support/pay-server.js';
import { FOREIGN_DIALECT_PAY, startDialectSandbox, type PaySandbox } from '../../src/pay/sandbox-harness.js';
import { testClock } from '../../support/clock.js';

/** The kit's own dialect, and the sandbox's foreign one with the kit configured by the example dialect file. */
const DIALECTS = [
  {
    name: 'kit',
    dialect: 'kit' as const,
    pay: {},
    words: { created: 'created', cancelled: 'cancelled', rejected: 'rejected', succeeded: 'succeeded' },
  },
  {
    name: 'foreign',
    dialect: 'foreign' as const,
    pay: FOREIGN_DIALECT_PAY,
    words: { created: 'NEW', cancelled: 'CANCELED', rejected: 'DECLINED', succeeded: 'PAID' },
  },
];
const SMALLER = { items: [{ name: 'Молоко 1 л', article: 'MILK-1', quantity: 2, price: 8_990 }], discountAmount: 0 };

// Document section 7, "Pay API recovery rules", every row driven through the bridge with the sandbox's controls,
// against the kit's own dialect and a foreign one (other status words, numeric ids, {code, message} errors, 410 for a
// session).
describe.each(DIALECTS)('bridge payments, recovery rules, $name dialect', ({ dialect, pay: payWords, words }) => {
  const clock = testClock('wall');
  let sb: PaySandbox;
  let pay: PayServer;
  let till: Till;
  let n = 0;
  beforeAll(async () => {
    sb = await startDialectSandbox(clock.now, dialect);
    // A pending refund is followed at the poll interval (the foreign service settles refunds later).
    pay = await startPayServer(sb, {
      webhook: true,
      clock,
      pay: payWords,
      ...(dialect === 'foreign' ? { pollIntervalMs: 100 } : {}),
    });
    till = await pay.connect();
  }, 120_000);
  afterAll(async () => {
    await pay?.close();
    await sb?.close();
  });
  beforeEach(async () => {
    await sb.sim.bank('approve', 0);
  });

  /** A payment checked out at once (walletPayIsDefault); its id and first transaction. */
  async function pending(options: { walletPayIsDefault?: boolean } = {}) {
    const card = await sb.sim.issueCard({ walletPayIsDefault: options.walletPayIsDefault ?? true });
    const paymentId = `${dialect}-row-${++n}`;
    const view = await till.call('pay.start', { fullBarcode: card.barcode, basket: BASKET, paymentId });
    return { card, paymentId, view };
  }
  const phase = (paymentId: string, wanted: string) =>
    till.until((u) => u.paymentId === paymentId && u.phase === wanted);

  it('row 1: a refused token blocks the card: cardRefused, phase blocked, nothing stored', async () => {
    const card = await sb.sim.issueCard({ walletPayIsDefault: true });
    await sb.sim.partner({ partnerId: PARTNER_ID, key: 'ab'.repeat(32) });
    try {
      await expect(
        till.call('pay.start', { cardSession: card.cardSession, basket: BASKET, paymentId: `${dialect}-row-token` }),
      ).rejects.toMatchObject({ rpcCode: -32010, code: 'TOKEN_INVALID' });
      expect(
        await till.until((u) => u.paymentId === `${dialect}-row-token` && u.event === 'cardRefused'),
      ).toMatchObject({ phase: 'blocked', reason: 'TOKEN_INVALID' });
      await expect(till.call('pay.retry', { paymentId: `${dialect}-row-token` })).rejects.toMatchObject({
        code: 'SESSION_OVER',
      });
    } finally {
      await sb.sim.partner({ partnerId: PARTNER_ID, key: demoConfig.verifier.key });
    }
    expect(await sb.sim.invoices(card.cardNumber)).toEqual([]);
  });

  it(
    'row 2: a refused card session asks the till to rescan; the new scan ' + 'checks out with a new requestId',
    async () => {
      const { card, paymentId, view } = await pending({ walletPayIsDefault: false });
      expect(view.phase).toBe('offered');
      clock.advance(901_000); // past the sandbox's card session lifetime
      expect(await till.call('pay.checkout', { paymentId })).toMatchObject({ phase: 'rescanning' });
      expect(await till.until((u) => u.paymentId === paymentId && u.event === 'rescanNeeded')).toMatchObject({
        reason: 'CARD_SESSION_INVALID',
      });
      const other = await sb.sim.issueCard();
      await expect(till.call('pay.rescan', { paymentId, fullBarcode: other.barcode })).rejects.toMatchObject({
        code: 'BARCODE_REFUSED',
      });
      const fresh = await sb.sim.rescan(card.cardNumber);
      const paid = await till.call('pay.rescan', { paymentId, fullBarcode: fresh.barcode });
      expect(paid).toMatchObject({ phase: 'pending' });
      expect(await sb.sim.invoices(card.cardNumber)).toEqual([
        expect.objectContaining({ transactionId: String(paid.transactionId), cardSession: fresh.cardSession }),
      ]);
    },
  );

  it('row 3: a lost /checkout answer is recovered with the same requestId: one invoice', async () => {
    await sb.sim.fault('/checkout', 'drop-after-commit', 1);
    const { card, view } = await pending();
    expect(view.phase).toBe('pending');
    expect(await sb.sim.invoices(card.cardNumber)).toEqual([
      expect.objectContaining({ transactionId: String(view.transactionId) }),
    ]);
  });

  it('row 4: a changed basket: tell the customer not to confirm, cancel, an updated checkout', async () => {
    const { card, paymentId, view } = await pending();
    const updated = await till.call('pay.changeBasket', { paymentId, basket: SMALLER });
    expect(await till.until((u) => u.paymentId === paymentId && u.event === 'tellCustomerNotToConfirm')).toMatchObject({
      reason: 'BASKET_CHANGED',
    });
    expect(updated).toMatchObject({ phase: 'pending', totalAmount: 2 * 8_990 });
    expect(updated.transactionId).not.toBe(view.transactionId);
    expect((await sb.sim.transaction(view.transactionId)).status).toBe('cancelled');
    expect(await sb.sim.invoices(card.cardNumber)).toEqual([
      expect.objectContaining({ transactionId: String(updated.transactionId), totalAmount: 2 * 8_990 }),
    ]);
  });

  it('row 5: cancelled before the bank received it: nothing withdrawn', async () => {
    await sb.sim.bank('approve', 3_600_000, 3_600_000);
    const { paymentId, view } = await pending();
    await sb.sim.confirm(view.transactionId);
    expect(await till.call('pay.cancel', { paymentId })).toMatchObject({
      phase: 'unsuccessful',
      status: words.cancelled,
    });
    expect((await sb.sim.transaction(view.transactionId)).status).toBe('cancelled');
  });

  it("row 5: cancelled after the bank received it: the bank's success still comes, as lateResult", async () => {
    await sb.sim.bank('approve', 3_600_000, 0); // received at once, answered in 1 h (3.6 s here): after the cancel
    const { paymentId, view } = await pending();
    await sb.sim.confirm(view.transactionId);
    // The kit's dialect answers the cancel `cancelled`; the foreign one says the bank still holds the payment.
    expect(await till.call('pay.cancel', { paymentId })).toMatchObject({ phase: 'unsuccessful' });
    expect(await till.until((u) => u.paymentId === paymentId && u.event === 'lateResult')).toMatchObject({
      status: words.succeeded,
    });
    await phase(paymentId, 'succeeded');
  });

  for (const [mode, reason] of [
    ['decline', 'DECLINED'],
    ['insufficient', 'INSUFFICIENT_FUNDS'],
    ['technical', 'TECHNICAL'],
  ] as const) {
    it(`rows 6, 9, 10: rejected (${reason}), then a retry with a new requestId pays`, async () => {
      await sb.sim.bank(mode, 0);
      const { card, paymentId, view } = await pending();
      await sb.sim.confirm(view.transactionId);
      expect(await till.until((u) => u.paymentId === paymentId && u.phase === 'unsuccessful')).toMatchObject({
        status: words.rejected,
        reason,
      });
      await sb.sim.bank('approve', 0);
      const retried = await till.call('pay.retry', { paymentId });
      expect(retried).toMatchObject({ phase: 'pending', status: words.created });
      expect(await sb.sim.invoices(card.cardNumber)).toEqual([
        expect.objectContaining({ transactionId: String(retried.transactionId) }),
      ]);
      await sb.sim.confirm(retried.transactionId);
      await phase(paymentId, 'succeeded');
    });
  }

  it('row 8: cancelled in the app by mistake: an updated checkout', async () => {
    const { paymentId, view } = await pending();
    await sb.sim.cancelInApp(view.transactionId);
    expect(await phase(paymentId, 'unsuccessful')).toMatchObject({ status: words.cancelled });
    const retried = await till.call('pay.retry', { paymentId });
    expect(retried.transactionId).not.toBe(view.transactionId);
    await sb.sim.confirm(retried.transactionId);
    await phase(paymentId, 'succeeded');
  });

  it('row 7: paid, the customer wants to cancel: ALREADY_PAID is refused by cancel, the refund works', async () => {
    const { paymentId, view } = await pending();
    await sb.sim.confirm(view.transactionId);
    await phase(paymentId, 'succeeded');
    await expect(till.call('pay.cancel', { paymentId })).rejects.toMatchObject({ code: 'SESSION_STATE' });
    // The kit's dialect refunds at once; the foreign one answers pending first, and the refund is followed.
    await till.call('pay.refund', { paymentId, refundId: `${paymentId}-r` });
    await phase(paymentId, 'refunded');
  });

  it('sends the open payments again to a till that reconnects', async () => {
    const { paymentId } = await pending();
    const again = await pay.connect();
    expect(await again.until((u) => u.paymentId === paymentId)).toMatchObject({ phase: 'pending' });
  });
});
