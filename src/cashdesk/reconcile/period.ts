import type { Queryable } from '../../db/index.js';
import type { PaymentRecord } from '../payments/record.js';
import { fromRow } from '../payments/rows.js';

/** A span of time: `from` inclusive, `to` exclusive. */
export interface Period {
  from: Date;
  to: Date;
}

/** Largest number of payments one read answers; a longer period is read page by page. */
const PAGE = 500;

/**
 * The payments that lived in the period: begun before its end and last
 * changed at or after its start, oldest first. Read from the rows alone, so
 * it works while no server runs.
 */
export async function paymentsOfPeriod(db: Queryable, period: Period): Promise<PaymentRecord[]> {
  const out: PaymentRecord[] = [];
  let after: { createdAt: string; tillId: string; paymentId: string } | undefined;
  for (;;) {
    const { rows } = await db.query<Record<string, unknown>>(
      `SELECT * FROM cashdesk_payments WHERE created_at < $2 AND updated_at >= $1
         AND ($3::timestamptz IS NULL OR (created_at, till_id, payment_id) > ($3::timestamptz, $4, $5))
       ORDER BY created_at, till_id, payment_id LIMIT ${PAGE}`,
      [
        period.from.toISOString(),
        period.to.toISOString(),
        after?.createdAt ?? null,
        after?.tillId ?? null,
        after?.paymentId ?? null,
      ],
    );
    const records = rows.map((row) => fromRow(row).record);
    out.push(...records);
    const last = records.at(-1);
    if (last === undefined || records.length < PAGE) return out;
    after = { createdAt: new Date(last.createdAt).toISOString(), tillId: last.tillId, paymentId: last.paymentId };
  }
}
