import type { Item } from './items.js';

/** What the amounts rule reads of an item: its integer quantity (in its measure) and price per unit, in kopecks. */
export type PricedLine = Pick<Item, 'quantity' | 'price'>;

/**
 * quantity x price of one line, in kopecks, exact. A bigint: the contract's
 * bounds (10^6 units at up to 10^12 kopecks) reach past 2^53, where a double
 * would round. The same goods in GRAM and KILOGRAM give the same amount.
 *
 * @example
 * lineAmount({ quantity: 350, price: 12 }) // 4200n (350 g at 120.00 per kg)
 */
export function lineAmount(line: PricedLine): bigint {
  return BigInt(line.quantity) * BigInt(line.price);
}

/** The purchase amount of a basket, sum of quantity x price, in kopecks, exact (bigint). */
export function purchaseAmountExact(items: readonly PricedLine[]): bigint {
  let sum = 0n;
  for (const item of items) sum += lineAmount(item);
  return sum;
}

/**
 * The purchase amount of a basket, sum of quantity x price, in kopecks. Exact
 * for any basket whose amounts the contract accepts; see
 * {@link purchaseAmountExact} for the bigint.
 *
 * @example
 * purchaseAmount([{ quantity: 2, price: 8990 }, { quantity: 350, price: 12 }]) // 22180
 */
export function purchaseAmount(items: readonly PricedLine[]): number {
  return Number(purchaseAmountExact(items));
}

function integerProblems(items: readonly PricedLine[], discountAmount: number, totalAmount: number): string[] {
  const problems: string[] = [];
  items.forEach((item, i) => {
    if (!Number.isSafeInteger(item.quantity) || item.quantity < 1)
      problems.push(`items.${i}.quantity: must be a positive integer`);
    if (!Number.isSafeInteger(item.price) || item.price < 0)
      problems.push(`items.${i}.price: must be an integer number of kopecks`);
  });
  if (!Number.isSafeInteger(discountAmount) || discountAmount < 0)
    problems.push('discountAmount: must be an integer number of kopecks');
  if (!Number.isSafeInteger(totalAmount) || totalAmount < 0)
    problems.push('totalAmount: must be an integer number of kopecks');
  return problems;
}

/**
 * The document's amounts rule (section 2.4), checked in integers (kopecks, for
 * pieces, grams and kilograms alike): every quantity and price is a whole
 * number; discountAmount, the part paid otherwise, is at most the purchase
 * amount sum(quantity x price); totalAmount, the part paid through the wallet,
 * is the purchase amount minus discountAmount. Returns the first
 * `<field>: <message>` line that fails, or undefined. The Pay client checks it
 * before sending and the sandbox before storing: one implementation.
 *
 * @example
 * const items = [{ quantity: 2, price: 8990 }, { quantity: 350, price: 12 }];
 * amountMismatch(items, 1000, 21180) // undefined
 * amountMismatch(items, 1000, 21181)
 * // 'totalAmount: must equal the purchase amount 22180 minus discountAmount 1000 (21180)'
 */
export function amountMismatch(
  items: readonly PricedLine[],
  discountAmount: number,
  totalAmount: number,
): string | undefined {
  const [problem] = integerProblems(items, discountAmount, totalAmount);
  if (problem !== undefined) return problem;
  const purchase = purchaseAmountExact(items);
  const discount = BigInt(discountAmount);
  if (discount > purchase) return `discountAmount: must not exceed the purchase amount ${purchase}`;
  if (BigInt(totalAmount) !== purchase - discount) {
    return (
      `totalAmount: must equal the purchase amount ${purchase} minus discountAmount ${discountAmount} ` +
      `(${purchase - discount})`
    );
  }
  return undefined;
}
