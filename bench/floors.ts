import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { fmt, type GroupResult } from './harness.js';

const entry = z
  .object({
    /** The value under which CI fails: a ratio (x) under `ratios`, a rate (/s) under `absolutes`. */
    floor: z.number().positive().optional(),
    /** Or the floor as a share of the goal, so it follows a goal that is raised later. */
    fraction: z.number().gt(0).lte(1).optional(),
    /** Why this floor: the goal, what was measured, why this margin. Required, so no number is left unexplained. */
    reason: z.string().min(1),
  })
  .strict()
  .refine((e) => (e.floor === undefined) !== (e.fraction === undefined), { error: 'give floor or fraction, not both' });

/** bench/floors.json: the one place CI's benchmark floors are set. */
export const floorsFileSchema = z
  .object({
    $comment: z.string().optional(),
    /** A ratio with no entry of its own fails under `defaultFraction` × its goal. */
    defaultFraction: z.number().gt(0).lte(1),
    defaultReason: z.string().min(1),
    /** By ratio label (the `label` of a group's ratio). */
    ratios: z.record(z.string(), entry),
    /** By absolute goal label. Absolute goals only report unless listed here: rates depend on the machine. */
    absolutes: z.record(z.string(), entry).default({}),
  })
  .strict();

/** A parsed floors file. */
export type FloorsFile = z.output<typeof floorsFileSchema>;

/** Reads and validates a floors file; throws with the file's name and the first problem. */
export function readFloors(path: string): FloorsFile {
  const parsed = floorsFileSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success)
    throw new Error(`${path}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

/** One target against its floor. `pass` is false only under the floor (or when not measured). */
export interface FloorCheck {
  kind: 'ratio' | 'absolute';
  group: string;
  label: string;
  /** The ratio (x) or the rate (/s); null when not measured. */
  value: number | null;
  goal: number;
  /** The goal met (reported; not what fails CI). */
  met: boolean;
  /** Null for an absolute goal with no floor: reported only. */
  floor: number | null;
  floorSource: 'floors.json' | 'default' | 'none';
  floorReason: string;
  pass: boolean;
}

/** The verdict over a run's groups. */
export interface FloorVerdict {
  checks: FloorCheck[];
  /** One line per check under its floor: what fails CI. */
  failures: string[];
  /** Floors that matched no measured target (a renamed ratio?), goals not met but above their floor. */
  warnings: string[];
  passed: boolean;
}

/**
 * Checks every ratio of the groups against its floor (its own entry, else
 * `defaultFraction` × its goal) and every absolute goal that has a floor entry.
 * A ratio that was not measured fails: its group declared it, so the benchmark broke.
 *
 * @example
 * const verdict = checkFloors(results.groups, readFloors('bench/floors.json'));
 * if (!verdict.passed) process.exitCode = 1;
 */
export function checkFloors(groups: GroupResult[], floors: FloorsFile): FloorVerdict {
  const checks: FloorCheck[] = [];
  const used = new Set<string>();
  for (const group of groups) {
    for (const r of group.ratios) {
      const own = floors.ratios[r.label];
      if (own) used.add(`ratio:${r.label}`);
      const floor = own?.floor ?? round(r.goal * (own?.fraction ?? floors.defaultFraction));
      checks.push({
        kind: 'ratio',
        group: group.title,
        label: r.label,
        value: r.value,
        goal: r.goal,
        met: r.met,
        floor,
        floorSource: own ? 'floors.json' : 'default',
        floorReason: own?.reason ?? floors.defaultReason,
        pass: r.value !== null && r.value >= floor,
      });
    }
    for (const a of group.absolutes) {
      const own = floors.absolutes[a.label];
      if (own) used.add(`absolute:${a.label}`);
      const floor = own === undefined ? null : (own.floor ?? Math.round(a.goal * own.fraction!));
      checks.push({
        kind: 'absolute',
        group: group.title,
        label: a.label,
        value: a.rate,
        goal: a.goal,
        met: a.met,
        floor,
        floorSource: own ? 'floors.json' : 'none',
        floorReason: own?.reason ?? 'reported only: an absolute rate depends on the machine',
        pass: floor === null || (a.rate !== null && a.rate >= floor),
      });
    }
  }
  const show = (c: FloorCheck, v: number) => (c.kind === 'ratio' ? `${v.toFixed(2)}x` : fmt(v));
  const failures = checks
    .filter((c) => !c.pass)
    .map((c) =>
      c.value === null
        ? `${c.label}: not measured (its group declares it)`
        : `${c.label}: ${show(c, c.value)} is under its floor ${show(c, c.floor!)} (goal ${show(c, c.goal)}; ` +
          `${c.floorReason})`,
    );
  const warnings = [
    ...Object.keys(floors.ratios)
      .filter((label) => !used.has(`ratio:${label}`))
      .map((label) => `floors.json: no measured ratio is labelled '${label}'`),
    ...Object.keys(floors.absolutes)
      .filter((label) => !used.has(`absolute:${label}`))
      .map((label) => `floors.json: no measured goal is labelled '${label}'`),
    ...checks
      .filter((c) => c.pass && !c.met && c.value !== null)
      .map(
        (c) =>
          `${c.label}: ${show(c, c.value!)} misses its goal ${show(c, c.goal)} ` +
          `(${c.floor === null ? 'reported only' : 'above its floor: not a failure'})`,
      ),
  ];
  return { checks, failures, warnings, passed: failures.length === 0 };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
