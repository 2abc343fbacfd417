import { ArgumentError, MeasureError } from '../../errors.js';
import { MAX_AMOUNT, MAX_QUANTITY, type Item } from './items.js';

/** The weight units of the document (section 2.4): quantity counts grams or kilograms. */
export type WeightMeasure = 'GRAM' | 'KILOGRAM';

/** Grams in a kilogram: the factor by which quantity and price scale between the two units. */
export const GRAMS_PER_KILOGRAM = 1000;

/** An item sold by weight: the fields the conversion reads and writes (others are kept). */
export type WeighedLine = Pick<Item, 'quantity' | 'price'> & { measure?: Item['measure'] | undefined };

function requireWhole(value: number, field: string, min: number, issues: string[]): void {
  if (!Number.isSafeInteger(value) || value < min) issues.push(`${field}: must be an integer of at least ${min}`);
}

function bounded(quantity: number, price: number, what: string): void {
  if (quantity > MAX_QUANTITY)
    throw new MeasureError(
      'MEASURE_OUT_OF_RANGE',
      `${what}: quantity ${quantity} is over the contract's ${MAX_QUANTITY}`,
    );
  if (price > MAX_AMOUNT)
    throw new MeasureError(
      'MEASURE_OUT_OF_RANGE',
      `${what}: price ${price} is over the contract's ${MAX_AMOUNT} kopecks`,
    );
}

/**
 * The same weighed goods stated in the other unit (document section 2.4, rule
 * 1): KILOGRAM -> GRAM multiplies quantity by 1000 and divides price by 1000;
 * GRAM -> KILOGRAM divides quantity by 1000 and multiplies price by 1000. The
 * line amount (quantity x price) is unchanged. Exact or refused: a division
 * that leaves a remainder throws {@link MeasureError} `MEASURE_INEXACT`
 * (nothing is rounded, so the amounts rule keeps holding); a result past the
 * contract's bounds throws `MEASURE_OUT_OF_RANGE`. An item in pieces, or with
 * a quantity or price that is not a whole number, throws {@link ArgumentError}.
 * Other fields are copied as they are.
 *
 * @example
 * convertMeasure({ name: 'Cheese', article: 'B-2', measure: 'KILOGRAM', quantity: 2, price: 120_000 }, 'GRAM')
 * // { name: 'Cheese', article: 'B-2', measure: 'GRAM', quantity: 2000, price: 120 }
 * convertMeasure({ name: 'Cheese', article: 'B-2', measure: 'GRAM', quantity: 350, price: 120 }, 'KILOGRAM')
 * // throws MeasureError MEASURE_INEXACT: 350 g is not a whole number of kilograms
 */
export function convertMeasure<T extends WeighedLine>(item: T, to: WeightMeasure): T & { measure: WeightMeasure } {
  const from = item.measure ?? 'PIECE';
  const issues: string[] = [];
  if (from !== 'GRAM' && from !== 'KILOGRAM')
    issues.push(`measure: must be GRAM or KILOGRAM to convert (is ${String(from)})`);
  if (to !== 'GRAM' && to !== 'KILOGRAM') issues.push(`to: must be GRAM or KILOGRAM (is ${String(to)})`);
  requireWhole(item.quantity, 'quantity', 1, issues);
  requireWhole(item.price, 'price', 0, issues);
  if (issues.length > 0) throw new ArgumentError(issues, 'weighed item');
  if (from === to) return { ...item, measure: to };
  let quantity: number;
  let price: number;
  if (to === 'GRAM') {
    if (item.price % GRAMS_PER_KILOGRAM !== 0) {
      throw new MeasureError(
        'MEASURE_INEXACT',
        `price ${item.price} kopecks per kilogram is not a whole number of kopecks per gram`,
      );
    }
    quantity = item.quantity * GRAMS_PER_KILOGRAM;
    price = item.price / GRAMS_PER_KILOGRAM;
  } else {
    if (item.quantity % GRAMS_PER_KILOGRAM !== 0) {
      throw new MeasureError('MEASURE_INEXACT', `quantity ${item.quantity} g is not a whole number of kilograms`);
    }
    quantity = item.quantity / GRAMS_PER_KILOGRAM;
    price = item.price * GRAMS_PER_KILOGRAM;
  }
  bounded(quantity, price, `${from} -> ${to}`);
  return { ...item, measure: to, quantity, price };
}

/** What a scale and a price tag say of weighed goods; see {@link weighedItem}. */
export interface Weighing {
  name: string;
  article: string;
  /** The weight, in whole grams. */
  grams: number;
  /** The price of one kilogram, in kopecks. */
  pricePerKilogram: number;
}

/**
 * A basket item for weighed goods in the document's integer terms (section
 * 2.4, rule 1): KILOGRAM when the weight is whole kilograms (the price per
 * kilogram as it is), else GRAM when the price per kilogram is whole kopecks
 * per gram. When neither holds (350 g at 1199.99 per kg), no integer quantity
 * and price state it: {@link MeasureError} `MEASURE_INEXACT`, and the merchant
 * decides how to round. Past the contract's bounds: `MEASURE_OUT_OF_RANGE`.
 *
 * @example
 * weighedItem({ name: 'Cheese', article: 'B-2', grams: 350, pricePerKilogram: 120_000 })
 * // { name: 'Cheese', article: 'B-2', measure: 'GRAM', quantity: 350, price: 120 }
 * weighedItem({ name: 'Potatoes', article: 'P-1', grams: 3000, pricePerKilogram: 4_999 })
 * // { name: 'Potatoes', article: 'P-1', measure: 'KILOGRAM', quantity: 3, price: 4999 }
 */
export function weighedItem({ name, article, grams, pricePerKilogram }: Weighing): Item {
  const issues: string[] = [];
  requireWhole(grams, 'grams', 1, issues);
  requireWhole(pricePerKilogram, 'pricePerKilogram', 0, issues);
  if (issues.length > 0) throw new ArgumentError(issues, 'weighing');
  if (grams % GRAMS_PER_KILOGRAM === 0) {
    const quantity = grams / GRAMS_PER_KILOGRAM;
    bounded(quantity, pricePerKilogram, 'KILOGRAM');
    return { name, article, measure: 'KILOGRAM', quantity, price: pricePerKilogram };
  }
  if (pricePerKilogram % GRAMS_PER_KILOGRAM === 0) {
    const price = pricePerKilogram / GRAMS_PER_KILOGRAM;
    bounded(grams, price, 'GRAM');
    return { name, article, measure: 'GRAM', quantity: grams, price };
  }
  throw new MeasureError(
    'MEASURE_INEXACT',
    `${grams} g at ${pricePerKilogram} kopecks per kilogram: neither whole kilograms nor whole kopecks per gram`,
  );
}
