/** Retry settings: how many, and how far apart (exponential with jitter). */
export interface RetryPolicy {
  /** Retries after the first attempt (0 turns retrying off). Default 3. */
  max: number;
  /** Ceiling of the first retry's delay, in ms; doubles each retry. Default 100. */
  baseMs: number;
  /** Largest delay between two attempts, in ms. Default 2000. */
  maxMs: number;
}

/** The default policy: 3 retries, 100 ms doubling, at most 2 s apart. */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({ max: 3, baseMs: 100, maxMs: 2_000 });

/**
 * The wait before retry number `retry` (1-based): "equal jitter", half of the
 * exponential ceiling fixed and half random, so many tills that lost the same
 * server do not come back in step, yet no retry comes back at once.
 * A `Retry-After` from the server lengthens it, never beyond `maxMs`.
 *
 * @example
 * backoffDelay(2, { max: 3, baseMs: 100, maxMs: 2000 }, Math.random) // 100..200 ms
 */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number, retryAfterMs = 0): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, retry - 1));
  const jittered = ceiling / 2 + random() * (ceiling / 2);
  return Math.round(Math.min(policy.maxMs, Math.max(jittered, retryAfterMs)));
}

/** A `Retry-After` header (seconds, or an HTTP date) in ms from `now`; 0 when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number {
  if (header === null) return 0;
  if (/^\d{1,6}$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? 0 : Math.max(0, at - now);
}

