import { randomUUID } from 'node:crypto';
import type { Database, Migration } from '../../db/index.js';
import { migrate } from '../../db/index.js';
import type { PayClient } from '../../pay/client.js';
import { reconcile } from './reconcile.js';
import { type Discrepancy, discrepancyKey, type ReconcileReport, remaining } from './report.js';

/** Default of {@link BackgroundReconcileOptions.intervalMs}: five minutes. */
export const DEFAULT_RECONCILE_INTERVAL_MS = 300_000;
/** Default of {@link BackgroundReconcileOptions.lookbackMs}: two hours. */
export const DEFAULT_RECONCILE_LOOKBACK_MS = 7_200_000;

/**
 * One row: which instance runs the comparison (`owner` until `claimed_until`) and the last report. Every instance
 * reads the report from here, so any of them answers with it and the warnings are said once for the chain.
 */
export const reconcileMigrations: readonly Migration[] = [
  {
    id: '001-cashdesk-reconciliation',
    sql: `CREATE TABLE IF NOT EXISTS cashdesk_reconciliation (
      id INT PRIMARY KEY,
      owner TEXT,
      claimed_until TIMESTAMPTZ NOT NULL,
      report JSONB
    )`,
  },
];

/** Options of {@link BackgroundReconciliation}. */
export interface BackgroundReconcileOptions {
  db: Database;
  client: PayClient;
  storeOf?: (tillId: string) => string | null;
  /** How often the chain compares (one instance at a time, by a claim on one row). Default 300 000 ms. */
  intervalMs?: number;
  /** The compared period: the payments changed in the last `lookbackMs`. Default 7 200 000 ms. */
  lookbackMs?: number;
  /** Each discrepancy not in the previous report (said once, by the instance that found it). */
  onNew?: (discrepancy: Discrepancy) => void;
  /** The discrepancies left to act on, by kind, after each look at the report (every instance). */
  onCounts?: (counts: Readonly<Record<string, number>>) => void;
  /** A failed run or read, nobody waiting for it. */
  onError?: (error: unknown) => void;
  /** Now, in ms. Default Date.now. */
  now?: () => number;
}

/** The unhealed discrepancies of a report, by kind. */
export function countsByKind(report: ReconcileReport): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const d of remaining(report)) counts[d.kind] = (counts[d.kind] ?? 0) + 1;
  return counts;
}

/**
 * `serve`'s reconciliation: every `intervalMs` the instance that claims the row compares the last `lookbackMs`
 * with the Pay service (as `pay reconcile` does, never healing: the instances' own sessions carry their payments
 * on, and `pay reconcile --heal` is the operator's act) and stores the report; every instance reads it back.
 */
export class BackgroundReconciliation {
  readonly #options: BackgroundReconcileOptions;
  readonly #owner = randomUUID();
  readonly #intervalMs: number;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #last: ReconcileReport | undefined;
  #closed = false;

  constructor(options: BackgroundReconcileOptions) {
    this.#options = options;
    this.#intervalMs = options.intervalMs ?? DEFAULT_RECONCILE_INTERVAL_MS;
  }

  /** Creates the row's table, then looks every `intervalMs` (the first an interval after the start). */
  async start(): Promise<void> {
    await migrate(this.#options.db, 'cashdesk-reconciliation', reconcileMigrations);
    this.#schedule(this.#intervalMs);
  }

  /** The last report the chain made, as this instance last read it. */
  last(): ReconcileReport | undefined {
    return this.#last;
  }

  /** One look: runs the comparison when this instance claims it, else reads the stored report. */
  tick(): Promise<void> {
    this.#running ??= this.#look().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  /** Stops the timer and waits for a look under way. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  #schedule(delayMs: number): void {
    if (this.#closed) return;
    this.#timer = setTimeout(() => {
      void this.tick().finally(() => this.#schedule(this.#intervalMs));
    }, delayMs);
    this.#timer.unref();
  }

  async #look(): Promise<void> {
    const o = this.#options;
    try {
      const previous = await this.#stored();
      const report = (await this.#claim()) ? await this.#run(previous) : previous;
      if (report === undefined) return;
      this.#last = report;
      o.onCounts?.(countsByKind(report));
    } catch (error) {
      try {
        o.onError?.(error);
      } catch {
        // the listener's own failure: the next look comes all the same
      }
    }
  }

  async #run(previous: ReconcileReport | undefined): Promise<ReconcileReport> {
    const o = this.#options;
    const to = new Date((o.now ?? Date.now)());
    const from = new Date(to.getTime() - (o.lookbackMs ?? DEFAULT_RECONCILE_LOOKBACK_MS));
    const report = await reconcile({
      db: o.db,
      client: o.client,
      period: { from, to },
      ...(o.storeOf ? { storeOf: o.storeOf } : {}),
      ...(o.now ? { now: o.now } : {}),
    });
    const known = new Set((previous?.discrepancies ?? []).map(discrepancyKey));
    for (const d of remaining(report)) if (!known.has(discrepancyKey(d))) o.onNew?.(d);
    // The next run is due an interval from now, on whichever instance claims it then (a tenth early: this one's
    // timer, an interval after this look, then finds the claim over rather than a moment short of it).
    await o.db.query(
      `UPDATE cashdesk_reconciliation SET report = $2::jsonb,
         claimed_until = now() + make_interval(secs => $3::double precision * 0.9 / 1000)
       WHERE id = 1 AND owner = $1`,
      [this.#owner, JSON.stringify(report), this.#intervalMs],
    );
    return report;
  }

  /** Whether this instance runs now: the row is unclaimed, or its claim (or the last run's interval) is over. */
  async #claim(): Promise<boolean> {
    // A run may take longer than an interval (a /status per transaction): held for two while it runs.
    const { rows } = await this.#options.db.query<{ owner: string }>(
      `INSERT INTO cashdesk_reconciliation (id, owner, claimed_until)
         VALUES (1, $1, now() + make_interval(secs => $2::double precision / 500))
       ON CONFLICT (id) DO UPDATE SET owner = EXCLUDED.owner, claimed_until = EXCLUDED.claimed_until
         WHERE cashdesk_reconciliation.claimed_until <= now()
       RETURNING owner`,
      [this.#owner, this.#intervalMs],
    );
    return rows[0]?.owner === this.#owner;
  }

  async #stored(): Promise<ReconcileReport | undefined> {
    const { rows } = await this.#options.db.query<{ report: ReconcileReport | null }>(
      'SELECT report FROM cashdesk_reconciliation WHERE id = 1',
    );
    return rows[0]?.report ?? undefined;
  }
}
