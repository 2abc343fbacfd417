import type { DayCloseQuery, ReconciliationQuery } from '../../contracts/back-office-reports.js';
import type { Database } from '../../db/index.js';
import { ConfigError } from '../../errors.js';
import type { PayClient } from '../../pay/client.js';
import { type DayCloseReport, dayClose } from '../day-close/day-close.js';
import { dayPeriod } from '../day-close/day.js';
import { reconcile } from './reconcile.js';
import type { ReconcileReport } from './report.js';

/** What the two back-office report routes read. */
export interface ReportsDeps {
  db: Database;
  /** The Pay API; without it the day-close reports no discrepancies (none could be looked for). */
  client?: PayClient;
  storeOf: (tillId: string) => string | null;
  /** The last report the background comparison made, when one runs; else one is made for the query. */
  lastReport?: () => ReconcileReport | undefined;
  now?: () => number;
}

const DAY_MS = 86_400_000;

/**
 * The body of `GET /v1/back-office/reconciliation` (scope `reports:read`),
 * given its validated query: the background comparison's last report when
 * no period is asked, else a comparison of that period (never healing).
 */
export async function reconciliationBody(query: ReconciliationQuery, deps: ReportsDeps): Promise<ReconcileReport> {
  if (deps.client === undefined) throw new ConfigError(['pay: no Pay API to compare with'], 'configuration');
  const last = deps.lastReport?.();
  if (last !== undefined && query.from === undefined && query.to === undefined) return last;
  const to = query.to === undefined ? new Date((deps.now ?? Date.now)()) : new Date(query.to);
  const from = query.from === undefined ? new Date(to.getTime() - DAY_MS) : new Date(query.from);
  return reconcile({ db: deps.db, client: deps.client, period: { from, to }, storeOf: deps.storeOf });
}

/** The body of `GET /v1/back-office/reports/day-close` (scope `reports:read`), given its validated query. */
export async function dayCloseBody(query: DayCloseQuery, deps: ReportsDeps): Promise<DayCloseReport> {
  const period = dayPeriod(query.date, query.tz);
  const found =
    deps.client === undefined
      ? undefined
      : await reconcile({ db: deps.db, client: deps.client, period, storeOf: deps.storeOf });
  return dayClose({
    db: deps.db,
    date: query.date,
    tz: query.tz,
    period,
    storeOf: deps.storeOf,
    discrepancies: found?.discrepancies ?? [],
  });
}
