import { money, parseMoney } from '../shared/format';
import type { Item } from '../shared/types';

/** One line as the operator types it: the price in roubles, the quantity in the line's measure. */
export interface Line {
  name: string;
  article: string;
  measure: 'PIECE' | 'KILOGRAM' | 'GRAM';
  quantity: string;
  price: string;
}

/** A basket to start from: pieces and goods by weight in both measures. */
export const SAMPLE_BASKET: Line[] = [
  { name: 'Coffee beans 1 kg', article: 'DEMO-1', measure: 'PIECE', quantity: '1', price: '200.00' },
  { name: 'Apples', article: 'DEMO-2', measure: 'KILOGRAM', quantity: '2', price: '150.00' },
  { name: 'Cheese by weight', article: 'DEMO-3', measure: 'GRAM', quantity: '250', price: '0.90' },
];

const UNIT: Record<Line['measure'], string> = { PIECE: 'pcs', KILOGRAM: 'kg', GRAM: 'g' };

/**
 * The Pay API's items (document 2.4: integer quantities in the measure, prices per unit in kopecks), or what is wrong.
 */
export function itemsOf(lines: Line[]): { items: Item[] } | { problem: string } {
  const items: Item[] = [];
  for (const [i, line] of lines.entries()) {
    const quantity = Number(line.quantity);
    const price = parseMoney(line.price);
    if (line.name.trim() === '' || line.article.trim() === '')
      return { problem: `line ${i + 1}: give a name and an article` };
    if (!Number.isInteger(quantity) || quantity < 1)
      return { problem: `line ${i + 1}: the quantity must be a whole number of ${UNIT[line.measure]} (document 2.4)` };
    if (price === undefined) return { problem: `line ${i + 1}: the price must be an amount such as 12.50` };
    items.push({ name: line.name.trim(), article: line.article.trim(), measure: line.measure, quantity, price });
  }
  if (items.length === 0) return { problem: 'the basket is empty' };
  return { items };
}

/** The basket editor: lines with measure, quantity and price per unit, and the part paid otherwise. */
export function BasketEditor({
  lines,
  onLines,
  discount,
  onDiscount,
  disabled,
}: {
  lines: Line[];
  onLines: (lines: Line[]) => void;
  discount: string;
  onDiscount: (d: string) => void;
  disabled: boolean;
}) {
  const set = (i: number, patch: Partial<Line>) => onLines(lines.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  const built = itemsOf(lines);
  const total = 'items' in built ? built.items.reduce((sum, it) => sum + it.quantity * it.price, 0) : undefined;
  const off = parseMoney(discount || '0') ?? 0;
  return (
    <section class="panel" aria-labelledby="basket-h">
      <h2 id="basket-h">Basket</h2>
      <div class="scroll">
        <table class="basket">
          <thead>
            <tr>
              <th>Name</th>
              <th>Article</th>
              <th>Measure</th>
              <th class="num">Quantity</th>
              <th class="num">Price per unit</th>
              <th>
                <span class="sr-only">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {lines.map((line, i) => (
              <tr key={i}>
                <td>
                  <input
                    aria-label={`Line ${i + 1} name`}
                    value={line.name}
                    disabled={disabled}
                    onInput={(e) => set(i, { name: e.currentTarget.value })}
                  />
                </td>
                <td>
                  <input
                    aria-label={`Line ${i + 1} article`}
                    value={line.article}
                    disabled={disabled}
                    onInput={(e) => set(i, { article: e.currentTarget.value })}
                  />
                </td>
                <td>
                  <select
                    aria-label={`Line ${i + 1} measure`}
                    value={line.measure}
                    disabled={disabled}
                    onChange={(e) => set(i, { measure: e.currentTarget.value as Line['measure'] })}
                  >
                    <option value="PIECE">pieces</option>
                    <option value="KILOGRAM">KILOGRAM</option>
                    <option value="GRAM">GRAM</option>
                  </select>
                </td>
                <td>
                  <input
                    aria-label={`Line ${i + 1} quantity in ${UNIT[line.measure]}`}
                    inputMode="numeric"
                    value={line.quantity}
                    disabled={disabled}
                    onInput={(e) => set(i, { quantity: e.currentTarget.value })}
                  />
                </td>
                <td>
                  <input
                    aria-label={`Line ${i + 1} price per ${UNIT[line.measure]}`}
                    inputMode="decimal"
                    value={line.price}
                    disabled={disabled}
                    onInput={(e) => set(i, { price: e.currentTarget.value })}
                  />
                </td>
                <td>
                  <button
                    type="button"
                    class="secondary"
                    disabled={disabled}
                    aria-label={`Remove line ${i + 1}`}
                    onClick={() => onLines(lines.filter((_, j) => j !== i))}
                  >
                    ✕
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <button
        type="button"
        class="secondary"
        disabled={disabled}
        onClick={() => onLines([...lines, { name: '', article: '', measure: 'PIECE', quantity: '1', price: '' }])}
      >
        Add a line
      </button>
      <div class="row">
        <div>
          <label for="discount">Paid otherwise (cash, points, advance)</label>
          <input
            id="discount"
            inputMode="decimal"
            value={discount}
            disabled={disabled}
            onInput={(e) => onDiscount(e.currentTarget.value)}
            placeholder="0.00"
          />
        </div>
        <p aria-live="polite">
          {total === undefined ? (
            <span class="notice error">{'problem' in built ? built.problem : ''}</span>
          ) : (
            <>
              To pay with the wallet: <strong data-testid="basket-total">{money(total - off)}</strong> of {money(total)}
            </>
          )}
        </p>
      </div>
    </section>
  );
}
