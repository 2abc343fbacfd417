import { evaluate, type BenchGroup, type GroupResult, type Measured } from './harness.js';

/**
 * The same groups measured several times (one array per repeat, in the same
 * order): for each group, the repeat whose first ratio is the median, with every
 * repeat's ratio added to its notes. A median keeps the figures of one real
 * repeat (cases and ratio agree) while one disturbed repeat moves nothing.
 */
export function medianRepeats(
  runs: Array<Array<{ group: BenchGroup; results: Map<string, Measured> }>>,
): GroupResult[] {
  const first = runs[0] ?? [];
  return first.map((_, g) => {
    const repeats = runs.map((run) => evaluate(run[g]!.group, run[g]!.results));
    if (repeats.length === 1 || repeats[0]!.ratios.length === 0) return repeats[0]!;
    const value = (r: GroupResult) => r.ratios[0]!.value ?? -Infinity;
    const sorted = [...repeats].sort((a, b) => value(a) - value(b));
    // The lower median of an even count: a tie between two repeats is settled towards the worse.
    const chosen = sorted[Math.floor((sorted.length - 1) / 2)]!;
    const each = repeats
      .map((r) => (r.ratios[0]!.value === null ? 'not measured' : `${r.ratios[0]!.value.toFixed(2)}x`))
      .join(', ');
    return {
      ...chosen,
      notes: [
        ...chosen.notes,
        `${repeats.length} repeats, ${chosen.ratios[0]!.label}: ${each}; the median repeat is shown.`,
      ],
    };
  });
}
