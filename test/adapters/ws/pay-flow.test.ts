import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RpcError } from '../../support/ws-client.js';
import { BASKET, startPayServer, TOTAL, type PayServer } from '../../support/pay-server.js';
import { paySandboxCases, type PaySandbox } from '../../src/pay/sandbox-harness.js';
import { testClock } from '../../support/clock.js';

const [pglite] = paySandboxCases('bridge payments');

describe.each([
  { webhook: false, how: 'polling' },
  { webhook: true, how: 'webhooks' },
])('bridge pay.* methods, status by $how', ({ webhook }) => {
  const clock = testClock('wall');
  let sb: PaySandbox;
  let pay: PayServer;
  beforeAll(async () => {
    sb = await pglite!.start(clock.now);
    pay = await startPayServer(sb, { webhook, clock });
  }, 120_000);
  afterAll(async () => {
    await pay?.close();
    await sb?.close();
  });

  it(
    'runs the main flow: scan, pay.start, confirm in the app, succeeded, receipt, refund; the old barcode is ' +
      'refused, a rescan works',
    async () => {
      const till = await pay.connect();
      const card = await pay.sim.issueCard({ walletPayIsDefault: true });
      const started = await till.call('pay.start', { fullBarcode: card.barcode, basket: BASKET, paymentId: 'sale-1' });
      expect(started).toMatchObject({
        paymentId: 'sale-1',
        phase: 'pending',
        walletPayIsDefault: true,
        totalAmount: TOTAL,
        status: 'created',
      });
      expect(started.providers.length).toBeGreaterThan(0);
      expect(await pay.sim.invoices(card.cardNumber)).toEqual([
        expect.objectContaining({ transactionId: started.transactionId, totalAmount: TOTAL }),
      ]);
      // The till's idempotency key: a repeat is the same payment, no second invoice.
      expect(
        await till.call('pay.start', { fullBarcode: card.barcode, basket: BASKET, paymentId: 'sale-1' }),
      ).toMatchObject({ transactionId: started.transactionId });

      await pay.sim.confirm(started.transactionId);
      const paid = await till.until((u) => u.paymentId === 'sale-1' && u.phase === 'succeeded');
      expect(paid).toMatchObject({
        status: 'succeeded',
        statusClass: 'successful',
        transactionId: started.transactionId,
      });
      expect(till.of('sale-1').map((u) => u.phase)).toEqual(['checking', 'checkout', 'pending', 'succeeded']);

      expect(
        await till.call('pay.receipt', { paymentId: 'sale-1', receipt: { fiscalSign: '3826350066', total: TOTAL } }),
      ).toMatchObject({ phase: 'succeeded', receiptSent: true });
      const refunded = await till.call('pay.refund', { paymentId: 'sale-1', refundId: 'refund-1' });
      expect(refunded).toMatchObject({ phase: 'refunded', refundedAmount: TOTAL });
      expect(await till.until((u) => u.paymentId === 'sale-1' && u.event === 'rescanNeeded')).toMatchObject({
        reason: 'REFUNDED',
      });
      expect((await pay.sim.transaction(started.transactionId)).refundedAmount).toBe(TOTAL);

      // The old barcode was used: the verifier refuses it (one scan, one payment).
      const refused = await till
        .call('pay.start', { fullBarcode: card.barcode, basket: BASKET, paymentId: 'sale-2' })
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(RpcError);
      expect(refused).toMatchObject({
        rpcCode: -32012,
        code: 'BARCODE_REFUSED',
        data: { errors: ['fullBarcode: VALIDATION_FAILED (REPLAYED)'] },
      });
      await expect(till.call('pay.get', { paymentId: 'sale-2' })).rejects.toMatchObject({ code: 'PAYMENT_NOT_FOUND' });

      // Its card session was closed by the refund: the payment asks for a rescan, and the new scan pays.
      const again = await till.call('pay.start', {
        cardSession: card.cardSession,
        basket: BASKET,
        paymentId: 'sale-3',
      });
      expect(again).toMatchObject({ paymentId: 'sale-3', phase: 'rescanning' });
      expect(await till.until((u) => u.paymentId === 'sale-3' && u.event === 'rescanNeeded')).toMatchObject({
        reason: 'CARD_SESSION_INVALID',
      });
      // Under rfc6238 a card has one password per step whatever its session: each new scan below is drawn a step later.
      clock.advance(30_000);
      const noSession = await pay.sim.post('/sandbox/cards', { cardNumber: card.cardNumber, withSession: false });
      await expect(
        till.call('pay.rescan', { paymentId: 'sale-3', fullBarcode: noSession.barcode }),
      ).rejects.toMatchObject({
        code: 'BARCODE_REFUSED',
        data: { errors: ['fullBarcode: CARDSESSION_NOT_AVAILABLE (OK)'] },
      });
      clock.advance(30_000);
      const fresh = await pay.sim.rescan(card.cardNumber);
      const rescanned = await till.call('pay.rescan', { paymentId: 'sale-3', fullBarcode: fresh.barcode });
      expect(rescanned).toMatchObject({ phase: 'pending', totalAmount: TOTAL });
      await pay.sim.confirm(rescanned.transactionId);
      await till.until((u) => u.paymentId === 'sale-3' && u.phase === 'succeeded');

      const listed = await till.call('pay.list', {});
      expect(listed.payments.map((p: { paymentId: string }) => p.paymentId).sort()).toEqual(['sale-1', 'sale-3']);
      expect((await till.call('pay.list', { phase: 'refunded' })).payments).toEqual([
        expect.objectContaining({ paymentId: 'sale-1' }),
      ]);
    },
  );

  it(
    'waits for the operator when walletPayIsDefault is false, and tells the till of each provider when none is ' +
      'available',
    async () => {
      const till = await pay.connect();
      const card = await pay.sim.issueCard({ walletPayIsDefault: false });
      const offered = await till.call('pay.start', { fullBarcode: card.barcode, basket: BASKET });
      expect(offered).toMatchObject({ phase: 'offered', walletPayIsDefault: false });
      expect(typeof offered.paymentId).toBe('string');
      await till.until((u) => u.paymentId === offered.paymentId && u.event === 'offerWalletPay');
      expect(await pay.sim.invoices(card.cardNumber)).toEqual([]);
      const checkedOut = await till.call('pay.checkout', { paymentId: offered.paymentId });
      expect(checkedOut).toMatchObject({ phase: 'pending', status: 'created' });

      const none = await pay.sim.issueCard({ payEnabled: false });
      const unavailable = await till.call('pay.start', {
        fullBarcode: none.barcode,
        basket: BASKET,
        paymentId: 'no-wallet',
      });
      expect(unavailable).toMatchObject({ phase: 'unavailable' });
      const shown = await till.until((u) => u.paymentId === 'no-wallet' && u.event === 'showProviderMessages');
      expect(shown.messages!.length).toBeGreaterThan(0);
      for (const m of shown.messages!) expect(m.message).toMatch(/\S/);
    },
  );

  it(
    "refuses bad params by name, other tills' payments, and intents out of " + 'phase, with the stable code in data',
    async () => {
      const till = await pay.connect();
      await expect(till.call('pay.start', { basket: BASKET })).rejects.toMatchObject({
        rpcCode: -32602,
        code: 'BAD_REQUEST',
        data: { errors: ['fullBarcode: give fullBarcode or cardSession, exactly one'] },
      });
      await expect(till.call('pay.start', { cardSession: 'AB12CD34', basket: { items: [] } })).rejects.toMatchObject({
        code: 'BAD_REQUEST',
        data: { errors: ['basket.items: must list at least one item'] },
      });
      const card = await pay.sim.issueCard({ walletPayIsDefault: false });
      const offered = await till.call('pay.start', { fullBarcode: card.barcode, basket: BASKET });
      const error = (await till
        .call('pay.refund', { paymentId: offered.paymentId, refundId: 'r-1' })
        .catch((e: unknown) => e)) as RpcError;
      expect(error).toMatchObject({ rpcCode: -32011, code: 'SESSION_STATE' });
      expect(JSON.stringify(error.data)).not.toMatch(/at .*\.ts/);
      await expect(
        till.call('pay.rescan', { paymentId: offered.paymentId, fullBarcode: card.barcode }),
      ).rejects.toMatchObject({ code: 'NO_RESCAN_PENDING' });
      expect(await till.call('pay.abandon', { paymentId: offered.paymentId })).toMatchObject({ phase: 'abandoned' });
    },
  );
});
