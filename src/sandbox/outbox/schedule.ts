/**
 * When each attempt is made, counted from the previous one (Standard
 * Webhooks' schedule, as the README states it): immediately, then after 5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h and 10 h. Eight attempts in all, about 27.6 hours.
 */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  0,
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
];

/**
 * The wait before attempt number `attempt + 1` (after `attempt` failed ones),
 * compressed by `timeScale`; undefined when no attempt is left.
 */
export function nextDelayMs(attemptsMade: number, timeScale = 1): number | undefined {
  const delay = RETRY_SCHEDULE_MS[attemptsMade];
  return delay === undefined ? undefined : delay / timeScale;
}
