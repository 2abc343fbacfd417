import type { Period } from '../reconcile/period.js';

/** Minutes east of UTC that `tz` is at `at` (from Intl: no zone table of our own). */
function offsetMinutes(tz: string, at: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at);
  const n = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const local = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return Math.round((local - Math.floor(at / 1000) * 1000) / 60_000);
}

/** The instant local midnight of `y-m-d` is in `tz` (offsets settle in two steps, around a change too). */
function midnight(tz: string, y: number, m: number, d: number): number {
  const wall = Date.UTC(y, m - 1, d);
  let at = wall - offsetMinutes(tz, wall) * 60_000;
  at = wall - offsetMinutes(tz, at) * 60_000;
  return at;
}

/** Whether `tz` names a time zone this runtime knows (IANA, such as Europe/Moscow, or UTC). */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Whether `date` is a real calendar day written YYYY-MM-DD. */
export function isCalendarDate(date: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === date;
}

/** The day `date` (YYYY-MM-DD, checked by the caller) in `tz`: from its local midnight to the next. */
export function dayPeriod(date: string, tz: string): Period {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return { from: new Date(midnight(tz, y, m, d)), to: new Date(midnight(tz, y, m, d + 1)) };
}
