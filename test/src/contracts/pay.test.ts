import { describe, expect, it } from 'vitest';
import { validationErrors } from '../../../src/contracts/validation-errors.js';
import {
  amountMismatch,
  canMove,
  CheckoutRequest,
  Item,
  purchaseAmount,
  RefundRequest,
  StatusRequest,
  statusClass,
} from '../../../src/contracts/pay/index.js';

const milk = { name: 'Milk 3.2%', article: 'A-1', quantity: 2, price: 8990 };

describe('Pay contract: items and amounts', () => {
  it('defaults the measure to PIECE and takes GRAM and KILOGRAM', () => {
    expect(Item.parse(milk).measure).toBe('PIECE');
    expect(Item.parse({ ...milk, measure: 'GRAM', quantity: 350, price: 12 }).measure).toBe('GRAM');
    expect(Item.safeParse({ ...milk, measure: 'LITRE' }).success).toBe(false);
  });

  it('refuses fractional quantities and prices, zero quantities and negative prices', () => {
    for (const bad of [{ quantity: 1.5 }, { quantity: 0 }, { price: 10.5 }, { price: -1 }]) {
      const result = Item.safeParse({ ...milk, ...bad });
      expect(result.success).toBe(false);
    }
  });

  it('prices the same goods alike in KILOGRAM and GRAM (quantity and price scale by 1000)', () => {
    expect(purchaseAmount([{ quantity: 2, price: 45_000 }])).toBe(purchaseAmount([{ quantity: 2000, price: 45 }]));
  });

  it('holds totalAmount = sum(quantity x price) - discountAmount', () => {
    const items = [Item.parse(milk), Item.parse({ ...milk, article: 'B-2', quantity: 1, price: 10_000 })];
    expect(amountMismatch(items, 5_000, 22_980)).toBeUndefined();
    expect(amountMismatch(items, 5_000, 22_981)).toBe(
      'totalAmount: must equal the purchase amount 27980 minus discountAmount 5000 (22980)',
    );
    expect(amountMismatch(items, 30_000, 0)).toBe('discountAmount: must not exceed the purchase amount 27980');
  });

  it('names each bad field of a checkout request', () => {
    const result = CheckoutRequest.safeParse({
      requestId: 'r 1',
      cardSession: 'AB12',
      items: [],
      discountAmount: -1,
      totalAmount: 1.5,
      extra: 1,
    });
    expect(result.success).toBe(false);
    expect(validationErrors(result.error!)).toEqual(
      expect.arrayContaining([
        'requestId: must be 1 to 64 of [A-Za-z0-9._:-]',
        'items: must list at least one item',
        'discountAmount: must not be negative',
        'totalAmount: must be an integer number of kopecks',
        'extra: unknown field',
      ]),
    );
  });

  it('takes a status query by transactionId or by requestId and cardSession, and a refund by amount or items', () => {
    expect(StatusRequest.safeParse({ transactionId: 't-1' }).success).toBe(true);
    expect(StatusRequest.safeParse({ requestId: 'r-1', cardSession: 'AB12CD34' }).success).toBe(true);
    expect(StatusRequest.safeParse({ requestId: 'r-1' }).success).toBe(false);
    expect(
      RefundRequest.safeParse({
        transactionId: 't',
        refundId: 'f',
        amount: 100,
        items: [{ article: 'A', quantity: 1 }],
      }).success,
    ).toBe(false);
  });
});

describe('Pay contract: statuses', () => {
  it('puts each status in its class', () => {
    expect(statusClass('processing')).toBe('transit');
    expect(statusClass('succeeded')).toBe('successful');
    expect(statusClass('rejected')).toBe('unsuccessful');
  });

  it('lets the bank answer after a cancellation, and nothing leave a final state', () => {
    expect(canMove('cancelled', 'succeeded')).toBe(true);
    expect(canMove('succeeded', 'cancelled')).toBe(false);
    expect(canMove('rejected', 'processing')).toBe(false);
  });
});
