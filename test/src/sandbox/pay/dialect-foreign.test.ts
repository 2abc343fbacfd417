import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joseToken, startPayHarness, uid, type PayHarness } from './harness.js';
import { sandboxCases } from '../../../support/sandbox.js';

// One scheme: the dialect words answers after the scan (see SCHEMES in harness.ts).
// timeScale is 1000 in the harness: a bank delay of 2_000_000 ms lasts 2 s of real time.
const cases = sandboxCases('sandbox Pay foreign dialect');
const sessionExpired = { status: 410, body: { code: 'SESSION_EXPIRED' } };

describe.each(cases)('sandbox Pay API in the foreign dialect on $name', (dbCase) => {
  let h: PayHarness;
  beforeAll(async () => {
    h = await startPayHarness(dbCase, { payOptions: { dialect: 'foreign', invoiceTtlSeconds: 300 } });
  });
  afterAll(async () => {
    await h?.close();
  });

  /** An invoice confirmed in the app with the bank set to `bank` for it (then back to approving at once). */
  async function confirmed(bank: { mode: string; delayMs?: number; receiveMs?: number }): Promise<number> {
    await h.sim('POST', '/sandbox/bank', bank);
    const { transactionId } = await h.invoice();
    expect((await h.sim('POST', `/sandbox/app/transactions/${transactionId}/confirm`)).status).toBe(200);
    await h.sim('POST', '/sandbox/bank', { mode: 'approve' });
    return transactionId as unknown as number;
  }

  async function paid(): Promise<number> {
    const id = await confirmed({ mode: 'approve' });
    await h.waitStatus(id as never, (s) => s.status === 'PAID');
    return id;
  }

  it('answers /checkout with a JSON-number transactionId and NEW, the same bytes again on a repeat', async () => {
    const card = await h.card();
    const body = h.checkoutBody(card.cardSession, uid('req'));
    const first = await h.pay('/checkout', body);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ transactionId: expect.any(Number), requestId: body.requestId, status: 'NEW' });
    expect(Number.isSafeInteger(first.body.transactionId)).toBe(true);
    expect((await h.pay('/checkout', body)).text).toBe(first.text);
    const status = await h.pay('/status', { transactionId: first.body.transactionId });
    expect(status.body).toMatchObject({ transactionId: first.body.transactionId, status: 'NEW' });
    // The kit's own field is not this service's: the client must class the words itself.
    expect(status.body).not.toHaveProperty('statusClass');
  });

  it('says IN_PROGRESS before the bank has the payment, the undocumented ON_HOLD while it holds it, PAID', async () => {
    const id = await confirmed({ mode: 'approve', receiveMs: 3_000_000, delayMs: 4_000_000 });
    expect((await h.pay('/status', { transactionId: id })).body.status).toBe('IN_PROGRESS');
    expect((await h.waitStatus(id as never, (s) => s.status !== 'IN_PROGRESS')).status).toBe('ON_HOLD');
    expect((await h.waitStatus(id as never, (s) => s.status !== 'ON_HOLD')).status).toBe('PAID');
  });

  it("answers a cancel while the bank holds the payment IN_PROGRESS, and the bank's result comes later", async () => {
    const id = await confirmed({ mode: 'approve', delayMs: 2_000_000 });
    const cancel = await h.pay('/cancel', { transactionId: id });
    expect(cancel.body).toMatchObject({ transactionId: id, status: 'IN_PROGRESS' });
    expect((await h.waitStatus(id as never, (s) => s.status !== 'IN_PROGRESS')).status).toBe('PAID');
  });

  it('says CANCELED for a cancel the bank never saw, DECLINED with the reason, and EXPIRED', async () => {
    const withdrawn = await confirmed({ mode: 'approve', receiveMs: 2_000_000, delayMs: 2_000_000 });
    expect((await h.pay('/cancel', { transactionId: withdrawn })).body.status).toBe('CANCELED');
    const fresh = await h.invoice();
    expect((await h.pay('/cancel', { transactionId: fresh.transactionId })).body.status).toBe('CANCELED');
    const declined = await h.invoice();
    const decline = `/sandbox/app/transactions/${declined.transactionId}/decline`;
    await h.sim('POST', decline, { reason: 'INSUFFICIENT_FUNDS' });
    expect((await h.pay('/status', { transactionId: declined.transactionId })).body).toMatchObject({
      status: 'DECLINED',
      reason: 'INSUFFICIENT_FUNDS',
    });
    const late = await h.invoice();
    h.clock.advance(301_000);
    expect((await h.pay('/status', { transactionId: late.transactionId })).body.status).toBe('EXPIRED');
  });

  it('refuses in {code, message}: VALIDATION_ERROR, BAD_SIGNATURE, TRANSACTION_NOT_FOUND, INVALID_AMOUNT', async () => {
    const card = await h.card();
    const invalid = await h.pay('/checkout', { ...h.checkoutBody(card.cardSession, uid('req')), totalAmount: 'lots' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ code: 'VALIDATION_ERROR', message: expect.stringContaining('totalAmount') });
    const text = JSON.stringify(h.checkoutBody(card.cardSession, uid('req')));
    const unsigned = await h.pay('/checkout', undefined, { raw: text, token: null });
    expect(unsigned).toMatchObject({ status: 401, body: { code: 'BAD_SIGNATURE', message: expect.any(String) } });
    const missing = await h.pay('/status', { transactionId: 999_999_999 });
    expect(missing).toMatchObject({ status: 404, body: { code: 'TRANSACTION_NOT_FOUND' } });
    const wrongSum = await h.pay('/checkout', { ...h.checkoutBody(card.cardSession, uid('req')), totalAmount: 1 });
    expect(wrongSum).toMatchObject({ status: 422, body: { code: 'INVALID_AMOUNT' } });
    expect(Object.keys(wrongSum.body).sort()).toEqual(['code', 'message']);
  });

  it('answers 410 SESSION_EXPIRED for a card session it will not take: unknown, expired, badly signed', async () => {
    expect(await h.pay('/checkout', h.checkoutBody('NoSuchSession1', uid('req')))).toMatchObject(sessionExpired);
    const signedBadly = await h.card();
    const text = JSON.stringify(h.checkoutBody(signedBadly.cardSession, uid('req')));
    const forged = await joseToken(text, { keyHex: 'ff'.repeat(32), iat: Math.floor(h.clock.now() / 1000) });
    expect((await h.pay('/checkout', undefined, { raw: text, token: forged })).body.code).toBe('BAD_SIGNATURE');
    const after = await h.pay('/checkout', h.checkoutBody(signedBadly.cardSession, uid('req')));
    expect(after).toMatchObject(sessionExpired);
    const old = await h.card();
    h.clock.advance(901_000);
    expect(await h.pay('/checkout', h.checkoutBody(old.cardSession, uid('req')))).toMatchObject(sessionExpired);
  });

  it('answers a refund PENDING, holds its amount back, then SUCCEEDED with the refunded amount', async () => {
    const id = await paid();
    await h.sim('POST', '/sandbox/bank/refunds', { mode: 'approve', delayMs: 60_000 });
    const first = await h.pay('/refund', { transactionId: id, refundId: 'r1', amount: 1000 });
    expect(first.body).toEqual({
      refundId: 'r1',
      transactionId: id,
      amount: 1000,
      refundedAmount: 0,
      status: 'PENDING',
    });
    expect((await h.pay('/refund', { transactionId: id, refundId: 'r1', amount: 1000 })).body.status).toBe('PENDING');
    const total = (await h.pay('/status', { transactionId: id })).body.totalAmount as number;
    const tooMuch = await h.pay('/refund', { transactionId: id, refundId: 'r2', amount: total - 999 });
    expect(tooMuch).toMatchObject({ status: 422, body: { code: 'INVALID_AMOUNT' } });
    h.clock.advance(60_000);
    expect((await h.pay('/refund', { transactionId: id, refundId: 'r1', amount: 1000 })).body).toMatchObject({
      status: 'SUCCEEDED',
      refundedAmount: 1000,
    });
    const after = await h.pay('/status', { transactionId: id });
    expect(after.body).toMatchObject({ status: 'PAID', refundedAmount: 1000 });
  });

  it('answers a refund PENDING, then FAILED, giving nothing back and leaving the amount to refund again', async () => {
    const id = await paid();
    await h.sim('POST', '/sandbox/bank/refunds', { mode: 'fail', delayMs: 0 });
    expect((await h.pay('/refund', { transactionId: id, refundId: 'f1' })).body.status).toBe('PENDING');
    const failed = await h.pay('/refund', { transactionId: id, refundId: 'f1' });
    expect(failed.body).toMatchObject({ status: 'FAILED', refundedAmount: 0 });
    expect((await h.pay('/status', { transactionId: id })).body.refundedAmount).toBe(0);
    await h.sim('POST', '/sandbox/bank/refunds', { mode: 'approve', delayMs: 0 });
    const again = await h.pay('/refund', { transactionId: id, refundId: 'f2' });
    expect(again.body.status).toBe('PENDING');
    const status = await h.pay('/status', { transactionId: id });
    expect(status.body.refundedAmount).toBe(again.body.amount);
    expect(status.body.refundedAmount).toBe(status.body.totalAmount);
  });

  it('answers /receipt with the transactionId as a number', async () => {
    const id = await paid();
    const answer = await h.pay('/receipt', { transactionId: id, receipt: { lines: 1 } });
    expect(answer.body).toEqual({ transactionId: id, status: 'ACCEPTED' });
  });
});
