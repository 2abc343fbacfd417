import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  amountMismatch,
  convertMeasure,
  GRAMS_PER_KILOGRAM,
  Item,
  lineAmount,
  MAX_AMOUNT,
  MAX_QUANTITY,
  purchaseAmount,
  purchaseAmountExact,
  weighedItem,
  type WeightMeasure,
} from '../../../../src/contracts/pay/index.js';
import { ArgumentError, MeasureError } from '../../../../src/errors.js';

const cheese = { name: 'Cheese', article: 'B-2' };
const other = (m: WeightMeasure): WeightMeasure => (m === 'GRAM' ? 'KILOGRAM' : 'GRAM');
/** The refusal a call throws, or undefined. */
const thrown = (run: () => unknown): unknown => {
  try {
    run();
    return undefined;
  } catch (error) {
    return error;
  }
};

/** Any item the contract accepts in GRAM or KILOGRAM. */
const weighed = fc
  .record({
    measure: fc.constantFrom<WeightMeasure>('GRAM', 'KILOGRAM'),
    quantity: fc.oneof(
      fc.integer({ min: 1, max: MAX_QUANTITY }),
      fc.integer({ min: 1, max: 1000 }).map((k) => k * 1000),
    ),
    price: fc.oneof(
      fc.integer({ min: 0, max: MAX_AMOUNT }),
      fc.integer({ min: 0, max: 1_000_000 }).map((p) => p * 1000),
    ),
  })
  .map((line) => ({ ...cheese, ...line }));

describe('convertMeasure', () => {
  it('states the examples of its documentation', () => {
    expect(convertMeasure({ ...cheese, measure: 'KILOGRAM', quantity: 2, price: 120_000 }, 'GRAM')).toEqual({
      ...cheese,
      measure: 'GRAM',
      quantity: 2000,
      price: 120,
    });
    expect(
      thrown(() => convertMeasure({ ...cheese, measure: 'GRAM', quantity: 350, price: 120 }, 'KILOGRAM')),
    ).toMatchObject({
      name: 'MeasureError',
      code: 'MEASURE_INEXACT',
      message: 'quantity 350 g is not a whole number of kilograms',
    });
  });

  it(
    'keeps the line amount exactly, gives whole numbers, and refuses only when a division leaves a remainder or a ' +
      'bound is passed',
    () => {
      fc.assert(
        fc.property(weighed, (item) => {
          const to = other(item.measure);
          const divided = to === 'GRAM' ? item.price : item.quantity;
          const error = thrown(() => convertMeasure(item, to));
          if (divided % GRAMS_PER_KILOGRAM !== 0) {
            expect(error).toMatchObject({ code: 'MEASURE_INEXACT' });
            return;
          }
          const quantity = to === 'GRAM' ? item.quantity * 1000 : item.quantity / 1000;
          const price = to === 'GRAM' ? item.price / 1000 : item.price * 1000;
          if (quantity > MAX_QUANTITY || price > MAX_AMOUNT) {
            expect(error).toMatchObject({ code: 'MEASURE_OUT_OF_RANGE' });
            return;
          }
          expect(error).toBeUndefined();
          const converted = convertMeasure(item, to);
          expect(converted).toEqual({ ...item, measure: to, quantity, price });
          expect(Number.isSafeInteger(converted.quantity) && Number.isSafeInteger(converted.price)).toBe(true);
          expect(lineAmount(converted)).toBe(lineAmount(item));
          expect(Item.parse(converted)).toEqual(converted);
          expect(convertMeasure(converted, item.measure)).toEqual(item); // the round trip
        }),
        { numRuns: 2000 },
      );
    },
  );

  it('refuses pieces, fractions and a unit it does not know as ARGUMENT_INVALID, naming each', () => {
    const error = thrown(() =>
      convertMeasure({ ...cheese, measure: 'PIECE', quantity: 1.5, price: -1 }, 'LITRE' as WeightMeasure),
    );
    expect(error).toBeInstanceOf(ArgumentError);
    expect((error as ArgumentError).issues).toEqual([
      'measure: must be GRAM or KILOGRAM to convert (is PIECE)',
      'to: must be GRAM or KILOGRAM (is LITRE)',
      'quantity: must be an integer of at least 1',
      'price: must be an integer of at least 0',
    ]);
    expect(convertMeasure({ ...cheese, measure: 'GRAM', quantity: 350, price: 120 }, 'GRAM')).toEqual({
      ...cheese,
      measure: 'GRAM',
      quantity: 350,
      price: 120,
    });
  });
});

describe('weighedItem', () => {
  it('states the examples of its documentation', () => {
    expect(weighedItem({ ...cheese, grams: 350, pricePerKilogram: 120_000 })).toEqual({
      ...cheese,
      measure: 'GRAM',
      quantity: 350,
      price: 120,
    });
    expect(weighedItem({ name: 'Potatoes', article: 'P-1', grams: 3000, pricePerKilogram: 4_999 })).toEqual({
      name: 'Potatoes',
      article: 'P-1',
      measure: 'KILOGRAM',
      quantity: 3,
      price: 4999,
    });
  });

  it(
    'gives an item worth exactly grams x price per kilogram / 1000, or ' + 'MEASURE_INEXACT when no integer item is',
    () => {
      const grams = fc.oneof(
        fc.integer({ min: 1, max: MAX_QUANTITY }),
        fc.integer({ min: 1, max: 1000 }).map((k) => k * 1000),
      );
      const pricePerKilogram = fc.oneof(
        fc.integer({ min: 0, max: MAX_AMOUNT }),
        fc.integer({ min: 0, max: 1_000_000 }).map((p) => p * 1000),
      );
      fc.assert(
        fc.property(grams, pricePerKilogram, (g, p) => {
          const exact = BigInt(g) * BigInt(p);
          const error = thrown(() => weighedItem({ ...cheese, grams: g, pricePerKilogram: p }));
          if (g % 1000 !== 0 && p % 1000 !== 0) {
            expect(error).toBeInstanceOf(MeasureError);
            expect(error).toMatchObject({ code: 'MEASURE_INEXACT' });
            return;
          }
          expect(error).toBeUndefined();
          const item = weighedItem({ ...cheese, grams: g, pricePerKilogram: p });
          expect(lineAmount(item) * 1000n).toBe(exact);
          expect(Item.parse(item)).toEqual(item);
        }),
        { numRuns: 2000 },
      );
    },
  );

  it('refuses a weight or price that is not a whole number, and a price per gram past the contract', () => {
    expect(
      (thrown(() => weighedItem({ ...cheese, grams: 0.5, pricePerKilogram: 1.5 })) as ArgumentError).issues,
    ).toEqual(['grams: must be an integer of at least 1', 'pricePerKilogram: must be an integer of at least 0']);
    expect(thrown(() => weighedItem({ ...cheese, grams: 2000, pricePerKilogram: MAX_AMOUNT + 1 }))).toMatchObject({
      code: 'MEASURE_OUT_OF_RANGE',
    });
  });
});

describe('the amounts rule', () => {
  const line = fc.record({
    quantity: fc.integer({ min: 1, max: MAX_QUANTITY }),
    price: fc.integer({ min: 0, max: MAX_AMOUNT }),
  });

  it('holds totalAmount = sum(quantity x price) - discountAmount exactly, past 2^53 where doubles round', () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 8 }),
        fc.bigInt({ min: 0n, max: 2n ** 53n - 1n }),
        (items, rawDiscount) => {
          const purchase = purchaseAmountExact(items);
          expect(purchase).toBe(items.reduce((sum, i) => sum + BigInt(i.quantity) * BigInt(i.price), 0n));
          // A discount that leaves a total a safe integer, when there is one.
          const low = purchase - (2n ** 53n - 1n) > 0n ? purchase - (2n ** 53n - 1n) : 0n;
          const discount = low + (rawDiscount % (purchase - low + 1n));
          if (discount > 2n ** 53n - 1n) return;
          const total = Number(purchase - discount);
          expect(amountMismatch(items, Number(discount), total)).toBeUndefined();
          if (Number.isSafeInteger(total + 1))
            expect(amountMismatch(items, Number(discount), total + 1)).toMatch(
              /^totalAmount: must equal the purchase amount \d+ /,
            );
          if (total > 0) expect(amountMismatch(items, Number(discount), total - 1)).toMatch(/^totalAmount: /);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('gives one answer for a basket whether its weighed goods are in GRAM or KILOGRAM', () => {
    fc.assert(
      fc.property(
        fc.array(weighed, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: -2, max: 2 }),
        (items, discount, off) => {
          const converted = items.map((i) =>
            thrown(() => convertMeasure(i, other(i.measure))) === undefined ? convertMeasure(i, other(i.measure)) : i,
          );
          expect(purchaseAmountExact(converted)).toBe(purchaseAmountExact(items));
          const total = Number(purchaseAmountExact(items) - BigInt(discount)) + off;
          if (!Number.isSafeInteger(total) || total < 0) return;
          expect(amountMismatch(converted, discount, total)).toBe(amountMismatch(items, discount, total));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('checks integers itself, for baskets built without the schema', () => {
    expect(amountMismatch([{ quantity: 0.35, price: 120_000 }], 0, 42_000)).toBe(
      'items.0.quantity: must be a positive integer',
    );
    expect(amountMismatch([{ quantity: 1, price: 10.5 }], 0, 10)).toBe(
      'items.0.price: must be an integer number of kopecks',
    );
    expect(amountMismatch([{ quantity: 1, price: 100 }], -1, 101)).toBe(
      'discountAmount: must be an integer number of kopecks',
    );
    expect(amountMismatch([{ quantity: 1, price: 100 }], 0, 2 ** 53)).toBe(
      'totalAmount: must be an integer number of kopecks',
    );
    expect(amountMismatch([{ quantity: 1, price: 100 }], 101, 0)).toBe(
      'discountAmount: must not exceed the purchase amount 100',
    );
  });

  it('states the examples of its documentation', () => {
    const items = [
      { quantity: 2, price: 8990 },
      { quantity: 350, price: 12 },
    ];
    expect(lineAmount({ quantity: 350, price: 12 })).toBe(4200n);
    expect(purchaseAmount(items)).toBe(22_180);
    expect(amountMismatch(items, 1000, 21_180)).toBeUndefined();
    expect(amountMismatch(items, 1000, 21_181)).toBe(
      'totalAmount: must equal the purchase amount 22180 minus discountAmount 1000 (21180)',
    );
  });
});
