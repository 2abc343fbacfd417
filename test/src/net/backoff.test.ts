import { describe, expect, it } from 'vitest';
import { backoffDelay, retryAfterMs } from '../../../src/net/backoff.js';

const policy = { max: 5, baseMs: 100, maxMs: 2_000 };

describe('backoffDelay', () => {
  it('keeps each retry between half and all of its doubling ceiling', () => {
    for (const [retry, ceiling] of [
      [1, 100],
      [2, 200],
      [3, 400],
      [4, 800],
      [5, 1600],
    ] as const) {
      expect(backoffDelay(retry, policy, () => 0)).toBe(ceiling / 2);
      expect(backoffDelay(retry, policy, () => 0.999_999)).toBe(ceiling);
    }
  });

  it('never waits longer than maxMs, even when the server asks for more', () => {
    expect(backoffDelay(10, policy, () => 0.999_999)).toBe(2_000);
    expect(backoffDelay(1, policy, () => 0, 30_000)).toBe(2_000);
  });

  it('waits at least what Retry-After asks when that is under maxMs', () => {
    expect(backoffDelay(1, policy, () => 0, 1_000)).toBe(1_000);
  });

  it('spreads the delays of many clients (jitter)', () => {
    const delays = new Set(Array.from({ length: 50 }, () => backoffDelay(4, policy, Math.random)));
    expect(delays.size).toBeGreaterThan(10);
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates, and nothing from absent or unreadable values', () => {
    const now = Date.UTC(2026, 10, 23, 10, 0, 0);
    expect(retryAfterMs('3', now)).toBe(3_000);
    expect(retryAfterMs(new Date(now + 5_000).toUTCString(), now)).toBe(5_000);
    expect(retryAfterMs(' 3 ', now)).toBe(3_000);
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
  });
});
