import { z } from '@hono/zod-openapi';
import { singleLine } from '../text.js';

/** Largest amount in kopecks the contract accepts: beyond any basket, and exact in a double. */
export const MAX_AMOUNT = 1_000_000_000_000;

const kopecks = (what: string) =>
  z.number({ error: `must be an integer number of kopecks` }).int({ error: 'must be an integer number of kopecks' })
    .min(0, { error: 'must not be negative' }).max(MAX_AMOUNT, { error: `must be at most ${MAX_AMOUNT}` })
    .openapi({ description: what });

/**
 * Unit of `quantity` (document section 2.4): pieces, or by weight. The same
 * goods in KILOGRAM and GRAM are the same amount: quantity and price scale
 * inversely by 1000.
 */
export const Measure = z.enum(['PIECE', 'GRAM', 'KILOGRAM'], { error: 'must be PIECE, GRAM or KILOGRAM' }).openapi('Measure');

/** One line of a basket. Several identical pieces: one item with quantity n, or n items of the same article. */
export const Item = z.object({
  name: singleLine(z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(256)),
  article: singleLine(z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(64)),
  measure: Measure.default('PIECE'),
  quantity: z.number({ error: 'must be a positive integer' }).int({ error: 'must be a positive integer' })
    .min(1, { error: 'must be a positive integer' }).max(1_000_000, { error: 'must be at most 1000000' }),
  price: kopecks('Price of one unit of measure, in kopecks.'),
}).strict().openapi('Item');

export type Item = z.output<typeof Item>;

/** Purchase amount of a basket: the sum of quantity x price, in kopecks. */
export function purchaseAmount(items: readonly Pick<Item, 'quantity' | 'price'>[]): number {
  return items.reduce((sum, item) => sum + item.quantity * item.price, 0);
}

/** `discountAmount` (paid otherwise) and `totalAmount` (paid through the wallet), in kopecks. */
export const Amounts = {
  discountAmount: kopecks('Part of the purchase paid otherwise (cash, advance, points), in kopecks.'),
  totalAmount: kopecks('Amount paid through the wallet: purchase amount minus discountAmount, in kopecks.'),
};

/**
 * The document's rule, both sides check it: totalAmount = sum(quantity x price) - discountAmount.
 * Returns the `<field>: <message>` line when it does not hold.
 */
export function amountMismatch(items: readonly Item[], discountAmount: number, totalAmount: number): string | undefined {
  const purchase = purchaseAmount(items);
  if (discountAmount > purchase) return `discountAmount: must not exceed the purchase amount ${purchase}`;
  if (totalAmount !== purchase - discountAmount) {
    return `totalAmount: must equal the purchase amount ${purchase} minus discountAmount ${discountAmount} (${purchase - discountAmount})`;
  }
  return undefined;
}
