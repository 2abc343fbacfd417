import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkFloors, type FloorsFile, readFloors } from '../../bench/floors.js';
import type { GroupResult } from '../../bench/harness.js';

const root = join(import.meta.dirname, '..', '..');

function group(
  ratios: Array<[label: string, value: number | null, goal: number]>,
  absolutes: Array<[label: string, rate: number, goal: number]> = [],
): GroupResult {
  return {
    title: 'synthetic group',
    cases: [],
    notes: [],
    met: false,
    ratios: ratios.map(([label, value, goal]) => ({
      label,
      subject: 's',
      baseline: 'b',
      value,
      goal,
      met: value !== null && value >= goal,
    })),
    absolutes: absolutes.map(([label, rate, goal]) => ({ label, subject: 's', rate, goal, met: rate >= goal })),
  };
}

const floors: FloorsFile = {
  defaultFraction: 0.7,
  defaultReason: 'default',
  ratios: { 'pinned ratio': { floor: 0.5, reason: 'pinned' }, 'share ratio': { fraction: 0.5, reason: 'half' } },
  absolutes: {},
};

describe('checkFloors', () => {
  it('passes a ratio under its goal but above 70% of it, and reports the missed goal as a warning', () => {
    const verdict = checkFloors([group([['kit vs baseline', 1.5, 2]])], floors);
    expect(verdict.passed).toBe(true);
    expect(verdict.checks[0]).toMatchObject({ floor: 1.4, floorSource: 'default', met: false, pass: true });
    expect(verdict.warnings.some((w) => w.startsWith('kit vs baseline: 1.50x misses its goal'))).toBe(true);
  });

  it('fails a ratio under 70% of its goal, naming it, its floor and its goal', () => {
    const verdict = checkFloors([group([['kit vs baseline', 1.3, 2]])], floors);
    expect(verdict.passed).toBe(false);
    expect(verdict.failures).toEqual([
      expect.stringMatching(/^kit vs baseline: 1\.30x is under its floor 1\.40x \(goal 2\.00x; default\)$/),
    ]);
  });

  it('takes a floor of floors.json over the default: a value, or a fraction of the goal', () => {
    expect(checkFloors([group([['pinned ratio', 0.6, 2]])], floors).passed).toBe(true);
    expect(checkFloors([group([['pinned ratio', 0.4, 2]])], floors).passed).toBe(false);
    const share = checkFloors([group([['share ratio', 0.95, 2]])], floors);
    expect(share.checks[0]).toMatchObject({ floor: 1, floorSource: 'floors.json' });
    expect(share.passed).toBe(false);
  });

  it('fails a ratio its group declares but did not measure', () => {
    const verdict = checkFloors([group([['kit vs baseline', null, 2]])], floors);
    expect(verdict.passed).toBe(false);
    expect(verdict.failures[0]).toContain('not measured');
  });

  it('reports an absolute goal without failing, unless floors.json gives it a floor', () => {
    const missed = group([], [['kit rate', 1000, 1_000_000]]);
    expect(checkFloors([missed], floors)).toMatchObject({
      passed: true,
      checks: [{ kind: 'absolute', floor: null, pass: true, met: false }],
    });
    expect(
      checkFloors([missed], { ...floors, absolutes: { 'kit rate': { floor: 5000, reason: 'our CI runner' } } }).passed,
    ).toBe(false);
  });

  it('warns of a floor that matches no measured ratio', () => {
    expect(checkFloors([group([])], floors).warnings).toContain(
      "floors.json: no measured ratio is labelled 'pinned ratio'",
    );
  });

  it("reads the repository's bench/floors.json", () => {
    expect(readFloors(join(root, 'bench', 'floors.json')).defaultFraction).toBeGreaterThan(0);
  });
});

describe('bench/ci.ts --check', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wpk-floors-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const check = (value: number) => {
    const results = join(dir, `results-${value}.json`);
    writeFileSync(
      results,
      JSON.stringify({
        schemaVersion: 1,
        date: '2026-11-24T00:00:00.000Z',
        durationSeconds: 1,
        git: null,
        settings: {},
        machine: {
          cpuModel: 'test',
          cores: 2,
          node: process.version,
          platform: 'test',
          loadAverageStart: [0, 0, 0],
          loadAverageEnd: [0, 0, 0],
        },
        groups: [group([['kit vs baseline', value, 2]])],
        checks: [],
        failures: [],
        warnings: [],
        passed: true,
      }),
    );
    const floorsFile = join(dir, 'floors.json');
    writeFileSync(floorsFile, JSON.stringify({ defaultFraction: 0.7, defaultReason: 'default', ratios: {} }));
    return spawnSync(process.execPath, ['--import', 'tsx', join(root, 'bench', 'ci.ts'), '--check', results], {
      cwd: root,
      env: { ...process.env, BENCH_FLOORS: floorsFile },
      encoding: 'utf8',
    });
  };

  it('exits 1 for a synthetic results.json with a ratio under its floor', () => {
    const run = check(1.2);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toContain('bench:ci — FAILED');
    expect(run.stdout).toContain('kit vs baseline: 1.20x is under its floor 1.40x');
  });

  it('exits 0 for the same file with the ratio above its floor', () => {
    const run = check(1.5);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('bench:ci — PASSED');
  });
});
