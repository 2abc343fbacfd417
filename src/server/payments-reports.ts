import type { Logger } from 'pino';
import type { BackOfficeReportsOptions } from '../cashdesk/back-office/back-office-payments.js';
import { isDatabaseUnavailable } from '../db/index.js';
import type { ServeConfig } from './config.js';

/** The background comparison's discrepancies left to act on, by kind (to `wpk_pay_discrepancies`). */
export type DiscrepancyCounts = (counts: Readonly<Record<string, number>>) => void;

/**
 * The reports' stores, and the background comparison as `pay.reconcile` says: one `warn` per new discrepancy
 * (under `part: reconcile`), its counts to `onCounts`.
 */
export function reportsOptions(
  config: {
    pay: Pick<NonNullable<ServeConfig['pay']>, 'reconcile'>;
    stores?: ReadonlyArray<[string, string | null]> | undefined;
    auditRetentionDays?: number | undefined;
  },
  logger: Logger,
  onCounts?: DiscrepancyCounts,
): BackOfficeReportsOptions {
  const stores = new Map(config.stores ?? []);
  const { intervalMs, lookbackMs } = config.pay.reconcile;
  const log = logger.child({ part: 'reconcile' });
  const storeOf = (tillId: string) => stores.get(tillId) ?? null;
  const days = config.auditRetentionDays;
  const retention = days === undefined ? {} : { auditRetentionDays: days };
  if (intervalMs === 0) return { storeOf, ...retention };
  return {
    storeOf,
    ...retention,
    background: {
      intervalMs,
      lookbackMs,
      onNew: (d) => {
        const { kind, tillId, store, paymentId, transactionId } = d;
        log.warn({ kind, tillId, store, paymentId, transactionId }, `payment discrepancy: ${kind}`);
      },
      ...(onCounts ? { onCounts } : {}),
      onError: (error) => {
        if (!isDatabaseUnavailable(error)) log.warn({ err: error }, 'background reconciliation failed');
      },
    },
  };
}
