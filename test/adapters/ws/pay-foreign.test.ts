import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BASKET, startPayServer, type PayServer, type Till } from '../../support/pay-server.js';
import { FOREIGN_DIALECT_PAY, startDialectSandbox, type PaySandbox } from '../../src/pay/sandbox-harness.js';
import { testClock } from '../../support/clock.js';

// The kit configured by the example dialect file for the sandbox's foreign dialect (which leaves out ON_HOLD).

describe('bridge payments against a service in a foreign dialect', () => {
  const clock = testClock('wall');
  let sb: PaySandbox;
  let pay: PayServer;
  let till: Till;
  let n = 0;
  beforeAll(async () => {
    sb = await startDialectSandbox(clock.now, 'foreign');
    // Polling every 20 ms: every status word the service writes is read by /status.
    pay = await startPayServer(sb, { webhook: false, clock, pay: FOREIGN_DIALECT_PAY });
    till = await pay.connect();
  }, 120_000);
  afterAll(async () => {
    await pay?.close();
    await sb?.close();
  });
  beforeEach(async () => {
    await sb.sim.bank('approve', 0);
  });

  async function pending(walletPayIsDefault = true) {
    const card = await sb.sim.issueCard({ walletPayIsDefault });
    const paymentId = `foreign-${++n}`;
    const view = await till.call('pay.start', { fullBarcode: card.barcode, basket: BASKET, paymentId });
    return { card, paymentId, view };
  }
  const phase = (paymentId: string, wanted: string) =>
    till.until((u) => u.paymentId === paymentId && u.phase === wanted);

  it("reaches succeeded with the service's own status word and its numeric transactionId", async () => {
    const { paymentId, view } = await pending();
    expect(view).toMatchObject({ phase: 'pending', status: 'NEW', statusClass: 'transit' });
    expect(typeof view.transactionId).toBe('number');
    await sb.sim.confirm(view.transactionId);
    expect(await phase(paymentId, 'succeeded')).toMatchObject({
      status: 'PAID',
      statusClass: 'successful',
      transactionId: view.transactionId,
    });
    expect(await till.call('pay.get', { paymentId })).toMatchObject({
      phase: 'succeeded',
      status: 'PAID',
      transactionId: view.transactionId,
    });
  });

  it('reaches succeeded with a space and _ in the card number and - and _ in the card session', async () => {
    const cardNumber = `4000 ${++n}_77`;
    const card = await sb.sim.issueCard({ cardNumber, cardSession: 'AB-12_CD' });
    expect(card.barcode).toBe(`CM;${cardNumber};AB-12_CD;${card.barcode.split(';')[3]}`);
    const paymentId = `foreign-${n}`;
    const view = await till.call('pay.start', { fullBarcode: card.barcode, basket: BASKET, paymentId });
    expect(view).toMatchObject({ phase: 'pending', status: 'NEW' });
    await sb.sim.confirm(view.transactionId);
    expect(await phase(paymentId, 'succeeded')).toMatchObject({ status: 'PAID', transactionId: view.transactionId });
    expect(await sb.sim.invoices(cardNumber)).toEqual([]);
  });

  it('refuses to issue a card whose number or session holds the delimiter, or a session too short', async () => {
    await expect(sb.sim.issueCard({ cardNumber: '4000;1234' })).rejects.toThrow(/400 .*cardNumber: must not hold/);
    await expect(sb.sim.issueCard({ cardSession: 'AB;12_CD' })).rejects.toThrow(/400 .*cardSession: must not hold/);
    await expect(sb.sim.issueCard({ cardSession: 'AB-12' })).rejects.toThrow(/400 .*cardSession: must be 8/);
  });

  it('refuses to open a card session that was issued already', async () => {
    const cardSession = `S-${++n}_`.padEnd(8, '=');
    await sb.sim.issueCard({ cardSession });
    await expect(sb.sim.issueCard({ cardSession })).rejects.toThrow(/409 .*cardSession: already issued/);
  });

  it('reaches unsuccessful when the bank declines', async () => {
    const { paymentId, view } = await pending();
    await sb.sim.bank('decline', 0);
    await sb.sim.confirm(view.transactionId);
    expect(await phase(paymentId, 'unsuccessful')).toMatchObject({
      status: 'DECLINED',
      statusClass: 'unsuccessful',
      reason: 'DECLINED',
    });
  });

  it("cancels an open invoice, the cancel answered in the service's words", async () => {
    const { paymentId } = await pending();
    expect(await till.call('pay.cancel', { paymentId })).toMatchObject({
      phase: 'unsuccessful',
      status: 'CANCELED',
      statusClass: 'unsuccessful',
    });
  });

  it('asks the till to scan again when the service answers 410 with its card session code', async () => {
    const { card, paymentId, view } = await pending(false);
    expect(view.phase).toBe('offered');
    clock.advance(901_000); // past the sandbox's card session lifetime
    expect(await till.call('pay.checkout', { paymentId })).toMatchObject({ phase: 'rescanning' });
    expect(await till.until((u) => u.paymentId === paymentId && u.event === 'rescanNeeded')).toMatchObject({
      reason: 'CARD_SESSION_INVALID',
    });
    const fresh = await sb.sim.rescan(card.cardNumber);
    expect(await till.call('pay.rescan', { paymentId, fullBarcode: fresh.barcode })).toMatchObject({
      phase: 'pending',
      status: 'NEW',
    });
  });

  it('tells the till of an undocumented status at once, polls on, and still ends succeeded', async () => {
    const { paymentId, view } = await pending();
    // 0.5 s at the sandbox's time scale: the bank holds the payment for a while: the service says ON_HOLD
    await sb.sim.bank('approve', 500_000);
    await sb.sim.confirm(view.transactionId);
    const told = await till.until((u) => u.paymentId === paymentId && u.event === 'statusNotUnderstood');
    expect(told).toMatchObject({ phase: 'pending', status: 'ON_HOLD', transactionId: view.transactionId });
    expect(told.statusClass).toBeUndefined();
    expect(await phase(paymentId, 'succeeded')).toMatchObject({ status: 'PAID' });
    expect(till.of(paymentId).filter((u) => u.event === 'statusNotUnderstood')).toHaveLength(1);
  });

  it('refunds a paid payment: answered pending, followed until it succeeded', async () => {
    const { paymentId, view } = await pending();
    await sb.sim.confirm(view.transactionId);
    await phase(paymentId, 'succeeded');
    const refundId = `refund-${paymentId}`;
    const answered = await till.call('pay.refund', { paymentId, refundId });
    expect(answered.refunds).toEqual([expect.objectContaining({ refundId, status: 'pending' })]);
    await phase(paymentId, 'refunded');
    await expect
      .poll(async () => (await sb.sim.transaction(view.transactionId)).refundedAmount, { timeout: 10_000 })
      .toBeGreaterThan(0);
  });
});
