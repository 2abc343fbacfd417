import { z } from 'zod';
import { singleLine } from '../text.js';

/** Largest amount in kopecks the contract accepts: beyond any basket, and exact in a double. */
export const MAX_AMOUNT = 1_000_000_000_000;

/** Largest `quantity` of one item the contract accepts (a tonne in grams). */
export const MAX_QUANTITY = 1_000_000;

const kopecks = (what: string) =>
  z
    .number({ error: `must be an integer number of kopecks` })
    .int({ error: 'must be an integer number of kopecks' })
    .min(0, { error: 'must not be negative' })
    .max(MAX_AMOUNT, { error: `must be at most ${MAX_AMOUNT}` })
    .meta({ description: what });

/**
 * Unit of `quantity` (document section 2.4): pieces, or by weight. The same
 * goods in KILOGRAM and GRAM are the same amount: quantity and price scale
 * inversely by 1000.
 */
export const Measure = z
  .enum(['PIECE', 'GRAM', 'KILOGRAM'], { error: 'must be PIECE, GRAM or KILOGRAM' })
  .meta({ id: 'Measure' });

const name = singleLine(z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(256));
const article = singleLine(z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(64));
const quantity = z
  .number({ error: 'must be a positive integer' })
  .int({ error: 'must be a positive integer' })
  .min(1, { error: 'must be a positive integer' })
  .max(MAX_QUANTITY, { error: `must be at most ${MAX_QUANTITY}` });
const price = kopecks('Price of one unit of measure, in kopecks.');

/** One line of a basket. Several identical pieces: one item with quantity n, or n items of the same article. */
export const Item = z
  .object({ name, article, measure: Measure.default('PIECE'), quantity, price })
  .strict()
  .meta({ id: 'Item' });

/**
 * A basket line as a till gives it: the same rules as {@link Item}, but
 * `measure` is there only when the till gave it. A default filled in here
 * would reach the service as a field nobody sent (under profile `document`,
 * one the document does not name for pieces); the Pay API's own reading
 * still takes a line without it as pieces.
 */
export const GivenItem = z
  .object({ name, article, measure: Measure.optional(), quantity, price })
  .strict()
  .meta({ id: 'GivenItem' });

export type Item = z.output<typeof Item>;
export type GivenItem = z.output<typeof GivenItem>;

/** `discountAmount` (paid otherwise) and `totalAmount` (paid through the wallet), in kopecks. */
export const Amounts = {
  discountAmount: kopecks('Part of the purchase paid otherwise (cash, advance, points), in kopecks.'),
  totalAmount: kopecks('Amount paid through the wallet: purchase amount minus discountAmount, in kopecks.'),
};
