import { describe, expect, it } from 'vitest';
import { DayCloseQuery, ReconciliationQuery } from '../../../src/contracts/back-office-reports.js';

describe('DayCloseQuery', () => {
  it('defaults the zone to UTC', () => {
    expect(DayCloseQuery.parse({ date: '2026-11-29' })).toEqual({ date: '2026-11-29', tz: 'UTC' });
  });

  it('refuses a day not in the calendar and an unknown zone', () => {
    expect(DayCloseQuery.safeParse({ date: '2026-02-30' }).success).toBe(false);
    expect(DayCloseQuery.safeParse({ date: '2026-02-28', tz: 'Mars/Olympus' }).success).toBe(false);
  });
});

describe('ReconciliationQuery', () => {
  it('takes RFC 3339 times and refuses anything else', () => {
    expect(ReconciliationQuery.safeParse({ from: '2026-11-29T00:00:00Z' }).success).toBe(true);
    expect(ReconciliationQuery.safeParse({ from: 'yesterday' }).success).toBe(false);
  });
});
