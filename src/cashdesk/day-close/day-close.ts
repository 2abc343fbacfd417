import type { SessionUpdate } from '../../contracts/cashdesk-payments.js';
import type { Queryable } from '../../db/index.js';
import type { PaymentRecord } from '../payments/record.js';
import { keyOf } from '../payments/rows.js';
import { csvCell } from '../reconcile/csv.js';
import { type Period, paymentsOfPeriod } from '../reconcile/period.js';
import type { Discrepancy } from '../reconcile/report.js';

/** Money of one till, one store or the whole day, in kopecks. */
export interface DayTotals {
  /** Payments begun that day. */
  payments: number;
  /** Money taken that day (late successes included). */
  paid: number;
  /** Money given back that day. */
  refunded: number;
  /** paid - refunded. */
  net: number;
}

/** The day-close report. */
export interface DayCloseReport {
  date: string;
  tz: string;
  tills: Array<{ tillId: string; store: string | null } & DayTotals>;
  stores: Array<{ store: string | null } & DayTotals>;
  totals: DayTotals;
  /** What the comparison with the service found for that day (empty when none was made). */
  discrepancies: Discrepancy[];
}

/** What a day-close reads. */
export interface DayCloseInput {
  db: Queryable;
  date: string;
  tz: string;
  /** The day's span (from `dayPeriod(date, tz)`). */
  period: Period;
  storeOf?: (tillId: string) => string | null;
  /** The reconciliation's findings for the day, reported as they are. Default none. */
  discrepancies?: Discrepancy[];
}

interface StoredUpdate {
  tillId: string;
  paymentId: string;
  at: Date;
  body: SessionUpdate;
}

/** The events of these payments, oldest first, whenever written (a success is counted on its first day only). */
async function eventsOf(db: Queryable, records: PaymentRecord[]): Promise<StoredUpdate[]> {
  if (records.length === 0) return [];
  const { rows } = await db.query<{ till_id: string; payment_id: string; at: Date; body: SessionUpdate }>(
    `SELECT e.till_id, e.payment_id, e.at, e.body FROM cashdesk_payment_events AS e
       JOIN jsonb_to_recordset($1::jsonb) AS k(till_id text, payment_id text)
         ON e.till_id = k.till_id AND e.payment_id = k.payment_id
     ORDER BY e.at, e.seq`,
    [JSON.stringify(records.map((r) => ({ till_id: r.tillId, payment_id: r.paymentId })))],
  );
  return rows.map((r) => ({ tillId: r.till_id, paymentId: r.payment_id, at: new Date(r.at), body: r.body }));
}

const zero = (): DayTotals => ({ payments: 0, paid: 0, refunded: 0, net: 0 });

/** The amount a transaction of a payment was for: its own when recorded, else the payment's. */
function amountOf(record: PaymentRecord, transactionId: string): number {
  const t = record.view.transactions?.find((x) => String(x.transactionId) === transactionId);
  return t?.totalAmount ?? record.view.totalAmount;
}

/**
 * Adds each till's money of the day: successes and settled refunds, each on the day it was first told (a refund
 * made outside the kit, recorded by `pay reconcile --heal`, on the day the service made it).
 */
function addMoney(
  records: PaymentRecord[],
  events: StoredUpdate[],
  period: Period,
  add: (tillId: string, m: Partial<DayTotals>) => void,
) {
  const byKey = new Map(records.map((r) => [keyOf(r), r]));
  const paidSeen = new Set<string>();
  const refundSeen = new Set<string>();
  const inDay = (at: Date) => at >= period.from && at < period.to;
  for (const e of events) {
    const record = byKey.get(keyOf(e))!;
    const { body } = e;
    if (body.statusClass === 'successful' && body.transactionId !== undefined) {
      const id = `${keyOf(e)}:${String(body.transactionId)}`;
      if (!paidSeen.has(id) && inDay(e.at)) add(e.tillId, { paid: amountOf(record, String(body.transactionId)) });
      paidSeen.add(id);
    }
    const refund = body.refund;
    if (refund?.status === 'succeeded') {
      const id = `${keyOf(e)}:${refund.refundId}`;
      // One made outside the kit and healed later counts on the day the service made it.
      const at = refund.at === undefined ? e.at : new Date(refund.at);
      if (!refundSeen.has(id) && inDay(at)) add(e.tillId, { refunded: refund.amount ?? 0 });
      refundSeen.add(id);
    }
  }
}

/**
 * The day-close: per till, per store and in all, the payments begun that day,
 * the money taken that day and the money given back that day, read from the
 * payments' stored events (the time each was written, in the database's clock).
 */
export async function dayClose(input: DayCloseInput): Promise<DayCloseReport> {
  const storeOf = input.storeOf ?? (() => null);
  // A payment begun earlier may be paid late or refunded that day: every payment changed since the day began.
  const records = await paymentsOfPeriod(input.db, { from: input.period.from, to: input.period.to });
  const tills = new Map<string, DayTotals>();
  const add = (tillId: string, m: Partial<DayTotals>) => {
    const t = tills.get(tillId) ?? zero();
    t.payments += m.payments ?? 0;
    t.paid += m.paid ?? 0;
    t.refunded += m.refunded ?? 0;
    t.net = t.paid - t.refunded;
    tills.set(tillId, t);
  };
  for (const r of records) if (r.createdAt >= input.period.from) add(r.tillId, { payments: 1 });
  addMoney(records, await eventsOf(input.db, records), input.period, add);
  const tillRows = [...tills.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([tillId, t]) => ({ tillId, store: storeOf(tillId), ...t }));
  const stores = new Map<string | null, DayTotals>();
  const totals = zero();
  for (const t of tillRows) {
    const s = stores.get(t.store) ?? zero();
    for (const sum of [s, totals]) {
      sum.payments += t.payments;
      sum.paid += t.paid;
      sum.refunded += t.refunded;
      sum.net = sum.paid - sum.refunded;
    }
    stores.set(t.store, s);
  }
  return {
    date: input.date,
    tz: input.tz,
    tills: tillRows,
    stores: [...stores.entries()].map(([store, s]) => ({ store, ...s })),
    totals,
    discrepancies: input.discrepancies ?? [],
  };
}

/** The day-close as CSV: a header row, then a row per till (RFC 4180 quoting). */
export function dayCloseCsv(report: DayCloseReport): string {
  const lines = [['date', 'tz', 'tillId', 'store', 'payments', 'paid', 'refunded', 'net'].join(',')];
  for (const t of report.tills)
    lines.push(
      [report.date, report.tz, t.tillId, t.store, t.payments, t.paid, t.refunded, t.net].map(csvCell).join(','),
    );
  return `${lines.join('\n')}\n`;
}
