import { describe, expect, it, vi } from 'vitest';
import { Availability } from '../../../src/db/availability.js';

/** A logger that keeps its lines and wakes waiters on each. */
function recorder() {
  const lines: Array<{ level: 'warn' | 'info'; msg: string; fields: object }> = [];
  const waiters: Array<() => void> = [];
  const push = (level: 'warn' | 'info') => (fields: object, msg: string) => {
    lines.push({ level, msg, fields });
    for (const wake of waiters.splice(0)) wake();
  };
  const until = async (match: () => boolean) => {
    while (!match()) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return { lines, until, logger: { warn: push('warn'), info: push('info') } };
}

/** A probe the test answers: it fails while `up` is false. */
function switchable() {
  const state = { up: false, probes: 0 };
  const probe = async () => {
    state.probes++;
    if (!state.up) throw Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
  };
  return { state, probe };
}

const classify = (error: unknown) => (error as { code?: string }).code;
/** The options every test shares: its log, the classification by `code`, a name. */
const base = (log: ReturnType<typeof recorder>) => ({ classify, logger: log.logger, where: 'db' });

describe('Availability', () => {
  it('logs one warning for many failures in a row', () => {
    const log = recorder();
    const health = new Availability({ ...base(log), probe: async () => {}, firstDelayMs: 60_000 });
    for (let i = 0; i < 100; i++) health.failed('ECONNREFUSED');
    health.close();
    expect(log.lines).toEqual([
      expect.objectContaining({ level: 'warn', fields: { database: 'db', reason: 'ECONNREFUSED' } }),
    ]);
    expect(health.down).toBe(true);
  });

  it('logs one line when a query answers after an outage, and none while it was up', () => {
    const log = recorder();
    const health = new Availability({ ...base(log), probe: async () => {}, firstDelayMs: 60_000 });
    health.answered();
    health.failed('57P01');
    health.answered();
    health.answered();
    health.close();
    expect(log.lines.map((l) => [l.level, l.msg])).toEqual([
      ['warn', expect.stringContaining('database unreachable')],
      ['info', 'database reachable again'],
    ]);
    expect(health.down).toBe(false);
  });

  it('finds the database back by probing when nothing queries it', async () => {
    const log = recorder();
    const { state, probe } = switchable();
    const health = new Availability({ ...base(log), probe, firstDelayMs: 1, maxDelayMs: 2 });
    health.failed('ECONNREFUSED');
    await expect.poll(() => state.probes).toBeGreaterThanOrEqual(3);
    state.up = true;
    await log.until(() => log.lines.length === 2);
    health.close();
    expect(log.lines.map((l) => l.level)).toEqual(['warn', 'info']);
    expect(health.down).toBe(false);
  });

  it('does not call a cut idle connection an outage when the probe answers', async () => {
    const log = recorder();
    let probed!: () => void;
    const done = new Promise<void>((resolve) => {
      probed = resolve;
    });
    const health = new Availability({
      ...base(log),
      probe: async () => {
        probed();
      },
      firstDelayMs: 1,
    });
    health.suspect();
    await done;
    health.close();
    expect(log.lines).toEqual([]);
    expect(health.down).toBe(false);
  });

  it('marks the database down when the probe after a cut idle connection fails', async () => {
    const log = recorder();
    const { probe } = switchable();
    const health = new Availability({ ...base(log), probe, firstDelayMs: 60_000 });
    health.suspect();
    await log.until(() => log.lines.length === 1);
    health.close();
    expect(log.lines[0]).toMatchObject({ level: 'warn', fields: { reason: 'ECONNREFUSED' } });
  });

  it('stops probing once closed', () => {
    vi.useFakeTimers();
    try {
      const log = recorder();
      const { state, probe } = switchable();
      const health = new Availability({ ...base(log), probe, firstDelayMs: 1, maxDelayMs: 1 });
      health.failed('ECONNREFUSED');
      health.close();
      vi.runAllTimers();
      expect(state.probes).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
