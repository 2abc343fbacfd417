import { describe, expect, it } from 'vitest';
import { nextDelayMs, RETRY_SCHEDULE_MS } from '../../../../src/sandbox/outbox/index.js';

describe('RETRY_SCHEDULE_MS', () => {
  it('retries on the documented schedule: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', () => {
    expect(RETRY_SCHEDULE_MS).toEqual([0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
  });
});

describe('nextDelayMs', () => {
  it('gives the wait after n failed attempts, divided by timeScale, and nothing after the 8th', () => {
    expect(nextDelayMs(1)).toBe(5_000);
    expect(nextDelayMs(2, 1000)).toBe(300);
    expect(nextDelayMs(7, 36_000)).toBe(1_000);
    expect(nextDelayMs(8)).toBeUndefined();
  });
});
