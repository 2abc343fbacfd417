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

/**
 * A `Retry-After` value (RFC 9110 section 10.2.3: delay seconds, or an HTTP date) in ms from `now`;
 * `undefined` when absent or unreadable, so each caller states its own default.
 *
 * @example
 * retryAfterMs(response.headers.get('retry-after'), Date.now()) ?? 0
 */
export function retryAfterMs(header: string | null | undefined, now: number): number | undefined {
  if (header === null || header === undefined) return undefined;
  const value = header.trim();
  if (/^\d{1,6}$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
