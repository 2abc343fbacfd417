export { realSleep, type Sleep } from '../net/sleep.js';

/**
 * How long a 304 asks to wait, in ms: `X-Retry-After-Ms` when present (precise,
 * which compressed sandbox time needs), else `Retry-After` (seconds or an HTTP
 * date), else `fallbackMs`.
 */
export function retryAfterMs(headers: Headers, now: number, fallbackMs = 1_000): number {
  const precise = headers.get('x-retry-after-ms')?.trim();
  if (precise !== undefined && /^\d{1,9}$/.test(precise)) return Number(precise);
  const header = headers.get('retry-after')?.trim();
  if (header !== undefined) {
    if (/^\d{1,6}$/.test(header)) return Number(header) * 1000;
    const at = Date.parse(header);
    if (!Number.isNaN(at)) return Math.max(0, at - now);
  }
  return fallbackMs;
}

/**
 * The wait before retry number `retry` (1-based) after a network failure:
 * exponential with "equal jitter", so many clients that lost the same server
 * do not come back in step.
 */
export function backoffMs(retry: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, retry - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
