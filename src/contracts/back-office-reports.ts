import { z } from 'zod';

/**
 * What a comparison of the kit's payments with the Pay service's records can find:
 * `paid_untold` (the service says paid, the kit does not), `told_unpaid` (the kit says paid, the service does
 * not), `amount_mismatch`, `refund_unknown` (the service shows more refunded than the kit gave back),
 * `refund_missing` (the kit counts a refund the service does not show), `late_success` (paid after the payment
 * abandoned or replaced it, not refunded in full: to refund), `stale_open` (still in transit long after it
 * began), `status_unreadable` (the service's status could not be read or classed), `receipt_unknown` (a receipt
 * whose outcome never came).
 */
export const DISCREPANCY_KINDS = [
  'paid_untold',
  'told_unpaid',
  'amount_mismatch',
  'refund_unknown',
  'refund_missing',
  'late_success',
  'stale_open',
  'status_unreadable',
  'receipt_unknown',
] as const;

const realDay = (date: string) => new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) === date;
const knownZone = (tz: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

/** `GET /v1/back-office/reconciliation?from&to`: the period of the report (RFC 3339; default the last 24 hours). */
export const ReconciliationQuery = z
  .object({
    from: z.iso.datetime({ offset: true }).optional(),
    to: z.iso.datetime({ offset: true }).optional(),
  })
  .strict()
  .meta({ id: 'ReconciliationQuery' });
export type ReconciliationQuery = z.infer<typeof ReconciliationQuery>;

/** `GET /v1/back-office/reports/day-close?date&tz`: the day (YYYY-MM-DD) in an IANA zone (default UTC). */
export const DayCloseQuery = z
  .object({
    date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a day, YYYY-MM-DD' })
      .refine(realDay, { error: 'must be a day of the calendar' }),
    tz: z.string().max(64).refine(knownZone, { error: 'must be an IANA time zone' }).default('UTC'),
  })
  .strict()
  .meta({ id: 'DayCloseQuery' });
export type DayCloseQuery = z.infer<typeof DayCloseQuery>;

const side = z.object({
  phase: z.string().optional(),
  status: z.string().optional(),
  statusClass: z.enum(['transit', 'successful', 'unsuccessful']).optional(),
  totalAmount: z.number().int().optional(),
  refundedAmount: z.number().int().optional(),
  current: z.boolean().optional(),
  error: z.string().optional(),
});

/** One difference between the kit's payments and the Pay service's records. */
export const Discrepancy = z
  .object({
    kind: z.enum(DISCREPANCY_KINDS),
    tillId: z.string(),
    store: z.string().nullable(),
    paymentId: z.string(),
    transactionId: z.string().nullable(),
    kit: side,
    service: side,
    healed: z.boolean(),
  })
  .meta({ id: 'Discrepancy' });

/** The reconciliation report. */
export const ReconciliationReport = z
  .object({
    from: z.string(),
    to: z.string(),
    payments: z.number().int(),
    transactions: z.number().int(),
    discrepancies: z.array(Discrepancy),
  })
  .meta({ id: 'ReconciliationReport' });

const totals = {
  payments: z.number().int(),
  paid: z.number().int(),
  refunded: z.number().int(),
  net: z.number().int(),
};

/** The day-close report: amounts in kopecks. */
export const DayCloseReport = z
  .object({
    date: z.string(),
    tz: z.string(),
    tills: z.array(z.object({ tillId: z.string(), store: z.string().nullable(), ...totals })),
    stores: z.array(z.object({ store: z.string().nullable(), ...totals })),
    totals: z.object(totals),
    discrepancies: z.array(Discrepancy),
  })
  .meta({ id: 'DayCloseReport' });
