import { describe, expect, it } from 'vitest';
import { AcceptedScans, SCANS_PER_TILL } from '../../../src/cashdesk/scans.js';

describe('AcceptedScans', () => {
  it("gives a till's accepted scan once", () => {
    const scans = new AcceptedScans();
    scans.remember('till-1', 'scan-a');
    expect(scans.take('till-1', 'scan-a')).toBe(true);
    expect(scans.take('till-1', 'scan-a')).toBe(false);
  });

  it('keeps a scan to the till that accepted it', () => {
    const scans = new AcceptedScans();
    scans.remember('till-1', 'scan-a');
    expect(scans.take('till-2', 'scan-a')).toBe(false);
  });

  it('forgets the oldest scan of a till past its bound', () => {
    const scans = new AcceptedScans();
    for (let i = 0; i <= SCANS_PER_TILL; i++) scans.remember('till-1', `scan-${i}`);
    expect(scans.take('till-1', 'scan-0')).toBe(false);
    expect(scans.take('till-1', `scan-${SCANS_PER_TILL}`)).toBe(true);
  });
});
