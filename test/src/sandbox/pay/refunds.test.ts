import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemsRefundAmount, unitsByArticle } from '../../../../src/sandbox/pay/refunds.js';
import type { TransactionRow } from '../../../../src/sandbox/pay/transactions.js';
import { sandboxSchemeCases, startPayHarness, uid, type PayHarness } from './harness.js';

describe('itemsRefundAmount', () => {
  const basket = fc.array(
    fc.record({
      article: fc.constantFrom('A', 'B', 'C'),
      quantity: fc.integer({ min: 1, max: 5 }),
      price: fc.integer({ min: 0, max: 100_000 }),
    }),
    { minLength: 1, maxLength: 6 },
  );

  it('returns exactly what was paid when every unit comes back, one unit at a time, and never more on the way', () => {
    fc.assert(
      fc.property(basket, fc.double({ min: 0, max: 1, noNaN: true }), (lines, share) => {
        const items = lines.map((l) => ({ ...l, name: l.article, measure: 'PIECE' as const }));
        const purchase = items.reduce((s, i) => s + i.quantity * i.price, 0);
        const discountAmount = Math.floor(purchase * share);
        const t = { items, totalAmount: purchase - discountAmount, refundedAmount: 0 } as unknown as TransactionRow;
        const refunded = new Map<string, number>();
        for (const [article, units] of unitsByArticle(items)) {
          for (let u = 0; u < units; u++) {
            const amount = itemsRefundAmount(t, refunded, new Map([[article, 1]]));
            expect(amount).toBeGreaterThanOrEqual(0);
            t.refundedAmount += amount;
            expect(t.refundedAmount).toBeLessThanOrEqual(t.totalAmount);
            refunded.set(article, (refunded.get(article) ?? 0) + 1);
          }
        }
        expect(t.refundedAmount).toBe(t.totalAmount);
      }),
      { numRuns: 300 },
    );
  });
});

describe.each(sandboxSchemeCases('sandbox Pay refunds'))('sandbox Pay /refund on $name ($scheme)', (dbCase) => {
  let h: PayHarness;
  beforeAll(async () => {
    h = await startPayHarness(dbCase);
  });
  afterAll(async () => {
    await h?.close();
  });

  /** A succeeded payment of `items` (no discount unless given). */
  async function paid(
    items: Array<{ name: string; article: string; quantity: number; price: number; measure?: string }>,
    discountAmount = 0,
  ) {
    const purchase = items.reduce((s, i) => s + i.quantity * i.price, 0);
    const t = await h.invoice({ items, discountAmount, totalAmount: purchase - discountAmount });
    await h.sim('POST', `/sandbox/app/transactions/${t.transactionId}/confirm`);
    await h.waitStatus(t.transactionId, (s) => s.status === 'succeeded');
    return t;
  }

  it('refunds partly by amount, then the rest, and refuses more than remains (422)', async () => {
    const t = await paid([{ name: 'TV', article: 'TV-1', quantity: 1, price: 5_000_000 }]);
    const first = await h.pay('/refund', { transactionId: t.transactionId, refundId: 'r1', amount: 1_000_000 });
    expect(first.body).toEqual({
      refundId: 'r1',
      transactionId: t.transactionId,
      amount: 1_000_000,
      refundedAmount: 1_000_000,
      status: 'succeeded',
    });
    const tooMuch = await h.pay('/refund', { transactionId: t.transactionId, refundId: 'r2', amount: 4_000_001 });
    expect(tooMuch).toMatchObject({
      status: 422,
      body: { status: 'AMOUNT_MISMATCH', errors: ['amount: 4000001 is more than the 4000000 left to refund'] },
    });
    const rest = await h.pay('/refund', { transactionId: t.transactionId, refundId: 'r3' });
    expect(rest.body).toMatchObject({ amount: 4_000_000, refundedAmount: 5_000_000 });
    expect((await h.pay('/status', { transactionId: t.transactionId })).body).toMatchObject({
      status: 'succeeded',
      refundedAmount: 5_000_000,
    });
    expect((await h.pay('/refund', { transactionId: t.transactionId, refundId: 'r4' })).body).toMatchObject({
      status: 'AMOUNT_MISMATCH',
      errors: ['amount: nothing left to refund'],
    });
  });

  it('refunds by items, never more pieces per article than bought, whether bought as one line or several', async () => {
    const t = await paid([
      { name: 'Yogurt', article: 'Y-1', quantity: 1, price: 5_000 },
      { name: 'Yogurt', article: 'Y-1', quantity: 1, price: 5_000 },
      { name: 'Bread', article: 'BR', quantity: 3, price: 4_000 },
    ]);
    const two = await h.pay('/refund', {
      transactionId: t.transactionId,
      refundId: 'y2',
      items: [{ article: 'Y-1', quantity: 2 }],
    });
    expect(two.body).toMatchObject({ amount: 10_000, refundedAmount: 10_000 });
    const third = await h.pay('/refund', {
      transactionId: t.transactionId,
      refundId: 'y3',
      items: [{ article: 'Y-1', quantity: 1 }],
    });
    expect(third).toMatchObject({
      status: 422,
      body: { status: 'AMOUNT_MISMATCH', errors: ['items: article "Y-1": 1 to refund, 0 left of 2 bought'] },
    });
    const unknown = await h.pay('/refund', {
      transactionId: t.transactionId,
      refundId: 'x',
      items: [{ article: 'NOPE', quantity: 1 }],
    });
    expect(unknown.body.errors).toEqual(['items: article "NOPE" was not bought']);
    const split = await h.pay('/refund', {
      transactionId: t.transactionId,
      refundId: 'b',
      items: [
        { article: 'BR', quantity: 1 },
        { article: 'BR', quantity: 1 },
      ],
    });
    expect(split.body).toMatchObject({ amount: 8_000, refundedAmount: 18_000 });
    const last = await h.pay('/refund', {
      transactionId: t.transactionId,
      refundId: 'b3',
      items: [{ article: 'BR', quantity: 1 }],
    });
    expect(last.body).toMatchObject({ amount: 4_000, refundedAmount: 22_000 });
    const record = await h.sim('GET', `/sandbox/transactions/${t.transactionId}`);
    expect(record.body.refunds.map((r: { refundId: string; amount: number }) => [r.refundId, r.amount])).toEqual([
      ['y2', 10_000],
      ['b', 8_000],
      ['b3', 4_000],
    ]);
  });

  it('spreads the discount over item refunds and returns exactly the rest with the last piece', async () => {
    const t = await paid([{ name: 'Coffee', article: 'C', quantity: 3, price: 1_000 }], 1_000);
    const one = await h.pay('/refund', {
      transactionId: t.transactionId,
      refundId: 'c1',
      items: [{ article: 'C', quantity: 1 }],
    });
    expect(one.body.amount).toBe(666);
    const rest = await h.pay('/refund', {
      transactionId: t.transactionId,
      refundId: 'c2',
      items: [{ article: 'C', quantity: 2 }],
    });
    expect(rest.body).toMatchObject({ amount: 1_334, refundedAmount: 2_000 });
  });

  it('counts weighed goods in their measure units', async () => {
    const t = await paid([{ name: 'Cheese', article: 'CH', measure: 'GRAM', quantity: 350, price: 12 }]);
    expect(
      (
        await h.pay('/refund', {
          transactionId: t.transactionId,
          refundId: 'g',
          items: [{ article: 'CH', quantity: 351 }],
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await h.pay('/refund', {
          transactionId: t.transactionId,
          refundId: 'g',
          items: [{ article: 'CH', quantity: 100 }],
        })
      ).body.amount,
    ).toBe(1_200);
  });

  it('is idempotent by refundId: the same body answers the stored refund, another body 409', async () => {
    const t = await paid([{ name: 'Pen', article: 'P', quantity: 5, price: 100 }]);
    const body = { transactionId: t.transactionId, refundId: uid('ref'), items: [{ article: 'P', quantity: 2 }] };
    const answers = await Promise.all(Array.from({ length: 8 }, () => h.pay('/refund', body)));
    expect(new Set(answers.map((a) => `${a.status} ${a.text}`)).size).toBe(1);
    expect(answers[0]!.body).toMatchObject({ amount: 200, refundedAmount: 200 });
    expect((await h.pay('/refund', { ...body, items: [{ article: 'P', quantity: 3 }] })).body.status).toBe(
      'IDEMPOTENCY_CONFLICT',
    );
    expect((await h.pay('/status', { transactionId: t.transactionId })).body.refundedAmount).toBe(200);
  });

  it('never refunds more than was paid under concurrent refunds with different refundIds', async () => {
    const t = await paid([{ name: 'Lamp', article: 'L', quantity: 1, price: 1000 }]);
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        h.pay('/refund', { transactionId: t.transactionId, refundId: `c${i}`, amount: 300 }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 422, 422]);
    expect((await h.pay('/status', { transactionId: t.transactionId })).body.refundedAmount).toBe(900);
  });

  it('closes the card session after a refund: the next checkout needs a new scan', async () => {
    const t = await paid([{ name: 'Pen', article: 'P', quantity: 1, price: 100 }]);
    await h.pay('/refund', { transactionId: t.transactionId, refundId: 'all' });
    const next = await h.pay('/checkout', h.checkoutBody(t.cardSession, uid('req')));
    expect(next.body).toMatchObject({
      status: 'CARD_SESSION_INVALID',
      errors: ['cardSession: closed after a refund; scan the barcode again'],
    });
    expect((await h.pay('/availability-info', { cardSession: t.cardSession })).status).toBe(409);
    const rescan = await h.sim('POST', `/sandbox/cards/${t.cardNumber}/barcode`, { partnerId: h.partnerId });
    expect((await h.pay('/checkout', h.checkoutBody(rescan.body.cardSession, uid('req')))).status).toBe(200);
  });

  it('refuses a body with both amount and items, and a non-positive amount (400)', async () => {
    const both = await h.pay('/refund', {
      transactionId: 'trx_x',
      refundId: 'r',
      amount: 1,
      items: [{ article: 'A', quantity: 1 }],
    });
    expect(both).toMatchObject({ status: 400, body: { status: 'BAD_REQUEST' } });
    expect((await h.pay('/refund', { transactionId: 'trx_x', refundId: 'r', amount: 0 })).body.errors).toEqual([
      'amount: must be a positive number of kopecks',
    ]);
    expect((await h.pay('/refund', { transactionId: 'trx_x', refundId: 'r' })).status).toBe(404);
  });
});
