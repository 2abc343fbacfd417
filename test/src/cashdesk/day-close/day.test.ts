import { describe, expect, it } from 'vitest';
import { dayPeriod, isCalendarDate, isTimeZone } from '../../../../src/cashdesk/day-close/day.js';

describe('dayPeriod', () => {
  it('spans local midnight to local midnight in the zone', () => {
    expect(dayPeriod('2026-11-29', 'Europe/Moscow')).toEqual({
      from: new Date('2026-11-28T21:00:00Z'),
      to: new Date('2026-11-29T21:00:00Z'),
    });
  });

  it('lasts 23 hours on the day the clocks go forward', () => {
    const { from, to } = dayPeriod('2026-03-29', 'Europe/Berlin');
    expect(from).toEqual(new Date('2026-03-28T23:00:00Z'));
    expect(to.getTime() - from.getTime()).toBe(23 * 3_600_000);
  });

  it('runs into the next month and year', () => {
    expect(dayPeriod('2026-12-31', 'UTC')).toEqual({
      from: new Date('2026-12-31T00:00:00Z'),
      to: new Date('2027-01-01T00:00:00Z'),
    });
  });
});

describe('isCalendarDate', () => {
  it('refuses a day that does not exist and other shapes', () => {
    expect(isCalendarDate('2026-02-28')).toBe(true);
    expect(isCalendarDate('2026-02-30')).toBe(false);
    expect(isCalendarDate('2026-2-3')).toBe(false);
  });
});

describe('isTimeZone', () => {
  it('knows IANA zones and refuses made-up ones', () => {
    expect(isTimeZone('Europe/Moscow')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});
