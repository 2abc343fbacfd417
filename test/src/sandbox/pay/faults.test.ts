import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPayHarness, uid, type PayHarness } from './harness.js';
import { sandboxCases } from '../../../support/sandbox.js';

// One scheme: faults act on requests about a transaction, after the card is scanned (see SCHEMES in harness.ts).
describe.each(sandboxCases('sandbox Pay faults'))('sandbox Pay injected faults on $name', (dbCase) => {
  let h: PayHarness;
  beforeAll(async () => {
    h = await startPayHarness(dbCase);
  });
  afterAll(async () => {
    await h?.close();
  });

  it(
    'drop-after-commit: the checkout is stored but its answer is lost; the ' + 'repeat answers the stored transaction',
    async () => {
      const card = await h.card();
      const body = h.checkoutBody(card.cardSession, uid('req'));
      expect(
        (await h.sim('POST', '/sandbox/faults', { path: '/checkout', action: 'drop-after-commit' })).body.faults,
      ).toHaveLength(1);
      await expect(h.pay('/checkout', body)).rejects.toThrow(/fetch failed/);
      const stored = await h.pay('/status', { requestId: body.requestId, cardSession: card.cardSession });
      expect(stored.body.status).toBe('created');
      const repeat = await h.pay('/checkout', body);
      expect(repeat.status).toBe(200);
      expect(repeat.body).toEqual({
        transactionId: stored.body.transactionId,
        requestId: body.requestId,
        status: 'created',
      });
      const { body: invoices } = await h.sim(
        'GET',
        `/sandbox/app/invoices?cardNumber=${card.cardNumber}&partnerId=${h.partnerId}`,
      );
      expect(invoices.invoices).toHaveLength(1);
    },
  );

  it(
    'drop-after-commit on /refund: the refund happened once, the repeat ' + 'with the same refundId answers it',
    async () => {
      const t = await h.invoice();
      await h.sim('POST', `/sandbox/app/transactions/${t.transactionId}/confirm`);
      await h.waitStatus(t.transactionId, (s) => s.status === 'succeeded');
      await h.sim('POST', '/sandbox/faults', { path: '/refund', action: 'drop-after-commit', count: 2 });
      const body = { transactionId: t.transactionId, refundId: 'lost-answer', amount: 500 };
      await expect(h.pay('/refund', body)).rejects.toThrow();
      await expect(h.pay('/refund', body)).rejects.toThrow();
      expect((await h.pay('/refund', body)).body).toMatchObject({ amount: 500, refundedAmount: 500 });
      expect((await h.pay('/status', { transactionId: t.transactionId })).body.refundedAmount).toBe(500);
    },
  );

  it('fail-before-commit: 503 UNAVAILABLE and nothing stored, then the next request goes through', async () => {
    const card = await h.card();
    const body = h.checkoutBody(card.cardSession, uid('req'));
    await h.sim('POST', '/sandbox/faults', { path: '/checkout', action: 'fail-before-commit' });
    const failed = await h.pay('/checkout', body);
    expect(failed).toMatchObject({ status: 503, body: { status: 'UNAVAILABLE' } });
    expect((await h.pay('/status', { requestId: body.requestId, cardSession: card.cardSession })).status).toBe(404);
    expect((await h.pay('/checkout', body)).status).toBe(200);
  });

  it('delay: answers after the given real milliseconds', async () => {
    const t = await h.invoice();
    await h.sim('POST', '/sandbox/faults', { path: '/status', action: 'delay', delayMs: 250 });
    const started = performance.now();
    expect((await h.pay('/status', { transactionId: t.transactionId })).body.status).toBe('created');
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
  });

  it('lists, disarms and validates faults', async () => {
    await h.sim('POST', '/sandbox/faults', { path: '/cancel', action: 'fail-before-commit', count: 3 });
    expect(
      (await h.sim('POST', '/sandbox/faults', { path: '/cancel', action: 'delay', delayMs: 1 })).body.faults,
    ).toEqual([
      { path: '/cancel', action: 'fail-before-commit', remaining: 3, delayMs: 0 },
      { path: '/cancel', action: 'delay', remaining: 1, delayMs: 1 },
    ]);
    expect((await h.sim('POST', '/sandbox/faults/clear')).body).toEqual({ faults: [] });
    const bad = await h.sim('POST', '/sandbox/faults', { path: '/nope', action: 'explode' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      'path: must be a Pay API path',
      'action: must be drop-after-commit, fail-before-commit or delay',
    ]);
  });
});
