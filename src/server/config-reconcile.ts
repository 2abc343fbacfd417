import { z } from 'zod';
import { DEFAULT_RECONCILE_INTERVAL_MS, DEFAULT_RECONCILE_LOOKBACK_MS } from '../cashdesk/reconcile/background.js';

const ms = (min: number, max: number, extra = '') => {
  const error = `must be an integer number of ms from ${min} to ${max}${extra}`;
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};

/**
 * `pay.reconcile`: the background comparison of the payments with the Pay service (`pay reconcile`'s, never
 * healing), one instance of a chain at a time. `intervalMs`: how often (default 300 000, five minutes; 0 turns it
 * off); `lookbackMs`: the payments changed in this last span (default 7 200 000, two hours).
 */
export const reconcileSection = z
  .object({
    intervalMs: ms(0, 86_400_000, ' (0: off)')
      .refine((v) => v === 0 || v >= 1000, { error: 'must be 0 (off) or at least 1000 ms' })
      .default(DEFAULT_RECONCILE_INTERVAL_MS),
    lookbackMs: ms(60_000, 31 * 86_400_000).default(DEFAULT_RECONCILE_LOOKBACK_MS),
  })
  .strict()
  .default({ intervalMs: DEFAULT_RECONCILE_INTERVAL_MS, lookbackMs: DEFAULT_RECONCILE_LOOKBACK_MS });
