import type { PaymentView } from '../../contracts/cashdesk-payments.js';
import type { Queryable } from '../../db/index.js';
import { KitError } from '../../errors.js';

/** Which payments a back-office search reads: created in [from, to), of these tills, in this phase. */
export interface PaymentSearch {
  /** RFC 3339; default: from the first. */
  from?: string;
  /** RFC 3339, excluded; default: up to now. */
  to?: string;
  /** Only these tills; default: every till. An empty list finds nothing. */
  tillIds?: readonly string[];
  phase?: PaymentView['phase'];
  /** Page size, 1 to 500. */
  limit: number;
  /** Where the previous page ended (its `next`). */
  cursor?: string;
}

/** A stored payment as a search finds it. */
export interface FoundPayment {
  tillId: string;
  view: PaymentView;
  createdAt: string;
  updatedAt: string;
}

/** A page of found payments, oldest first, and the cursor of the next page (null on the last). */
export interface PaymentPage {
  payments: FoundPayment[];
  next: string | null;
}

/** The page's end as an opaque cursor: its creation time and key, base64url. */
function cursorOf(last: FoundPayment): string {
  return Buffer.from(JSON.stringify([last.createdAt, last.tillId, last.view.paymentId])).toString('base64url');
}

/** The position a cursor names, or undefined when it is not one this search made. */
function positionOf(cursor: string): [string, string, string] | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 3 && value.every((v) => typeof v === 'string'))
      return value as [string, string, string];
  } catch {
    // Not JSON: refused below like any other foreign cursor.
  }
  return undefined;
}

/**
 * Reads a page of `cashdesk_payments` for the back office, in creation order; paged by keyset (creation time,
 * till, payment), so a page is stable while payments are added after it.
 *
 * @throws KitError (`BAD_REQUEST`) for a cursor that is not one of this search's.
 */
export async function searchPayments(db: Queryable, search: PaymentSearch): Promise<PaymentPage> {
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (search.from !== undefined) where.push(`created_at >= ${param(search.from)}::timestamptz`);
  if (search.to !== undefined) where.push(`created_at < ${param(search.to)}::timestamptz`);
  if (search.tillIds !== undefined) where.push(`till_id = ANY(${param([...search.tillIds])}::text[])`);
  if (search.phase !== undefined) where.push(`phase = ${param(search.phase)}`);
  if (search.cursor !== undefined) {
    const at = positionOf(search.cursor);
    if (at === undefined || Number.isNaN(Date.parse(at[0]))) throw new KitError('BAD_REQUEST', 'cursor: not a cursor');
    where.push(`(created_at, till_id, payment_id) > (${param(at[0])}::timestamptz, ${param(at[1])}, ${param(at[2])})`);
  }
  const { rows } = await db.query<{ till_id: string; view: PaymentView; created_at: Date; updated_at: Date }>(
    `SELECT till_id, view, created_at, updated_at FROM cashdesk_payments
     ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
     ORDER BY created_at, till_id, payment_id LIMIT ${param(search.limit + 1)}`,
    params,
  );
  const payments = rows.slice(0, search.limit).map((row) => ({
    tillId: row.till_id,
    view: row.view,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  }));
  const more = rows.length > search.limit;
  return { payments, next: more ? cursorOf(payments[payments.length - 1]!) : null };
}
