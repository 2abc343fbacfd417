import Benchmark from 'benchmark';

/** One measured case. */
/** The middle value of `values` (the mean of the two middle ones for an even count); 0 when there are none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface Measured {
  name: string;
  hz: number;
  rme: number;
  samples: number;
  /**
   * Shown in the rate column instead of `hz` (e.g. a latency or a count a group expresses as a rate for its ratios).
   */
  display?: string;
}

/** A comparison with a target: `subject / baseline >= target`. */
export interface Ratio {
  label: string;
  subject: string;
  baseline: string;
  target: number;
}

/** An absolute target: `subject >= perSecond`. */
export interface Floor {
  label: string;
  subject: string;
  perSecond: number;
}

/** A group of cases measured in one run, so their ratios share the machine's state. */
export interface BenchGroup {
  title: string;
  /** Each case, and how many operations one call of it does (default 1): its rate is per operation. */
  cases: Array<[name: string, fn: () => unknown, perCall?: number]>;
  ratios: Ratio[];
  floors?: Floor[];
  notes?: string[];
  /**
   * A verdict the group reached itself (e.g. an absolute time it states in its notes); false fails the run like a
   * missed ratio.
   */
  met?: boolean;
}

/** A measured case as results.json keeps it. */
export interface CaseResult {
  name: string;
  /** Operations per second (or what the group expresses as one). */
  rate: number;
  /** Relative margin of error, in percent. */
  rme: number;
  samples: number;
  display?: string;
}

/** A ratio as results.json keeps it: `value = rate(subject) / rate(baseline)`, met when `value >= goal`. */
export interface RatioResult {
  label: string;
  subject: string;
  baseline: string;
  /** `null` when a case it needs was not measured (e.g. the native addon is missing). */
  value: number | null;
  goal: number;
  met: boolean;
}

/** An absolute-rate goal as results.json keeps it. */
export interface AbsoluteResult {
  label: string;
  subject: string;
  rate: number | null;
  goal: number;
  met: boolean;
}

/** One group's figures and verdicts, serialisable as JSON. */
export interface GroupResult {
  title: string;
  cases: CaseResult[];
  ratios: RatioResult[];
  absolutes: AbsoluteResult[];
  notes: string[];
  /** The group's own verdict (BenchGroup.met), when it gives one. */
  verdict?: boolean;
  /** Every ratio, absolute goal and the group's own verdict met. */
  met: boolean;
}

/** Options of {@link measure}. */
export interface MeasureOptions {
  /** Seconds benchmark.js may spend per case. Default: BENCH_MAX_TIME, else 3. */
  maxTime?: number;
}

/** Runs the cases of a group one after the other (benchmark.js, synchronous). */
export function measure(group: BenchGroup, options: MeasureOptions = {}): Map<string, Measured> {
  // Read here, not at import: bench/ci.ts sets its short defaults after its imports ran.
  const maxTime = options.maxTime ?? Number(process.env.BENCH_MAX_TIME ?? 3);
  const results = new Map<string, Measured>();
  const suite = new Benchmark.Suite(group.title);
  const perCall = new Map<string, number>();
  for (const [name, fn, times] of group.cases) {
    perCall.set(name, times ?? 1);
    suite.add(name, fn, { maxTime, minSamples: 10 });
  }
  suite.on('cycle', (event: Benchmark.Event) => {
    const b = event.target as unknown as Benchmark & { name: string };
    results.set(b.name, {
      name: b.name,
      hz: b.hz * perCall.get(b.name)!,
      rme: b.stats.rme,
      samples: b.stats.sample.length,
    });
    process.stderr.write(`  measured ${b.name}\n`);
  });
  suite.run({ async: false });
  return results;
}

/** Options of {@link measureInterleaved}. */
export interface InterleavedOptions {
  /** Seconds of measured time per case in all (default 1). */
  seconds?: number;
  /** Aimed length of one batch, ms (default 10). */
  batchMs?: number;
}

/** CPU time this process has used, ms (user + system, every thread). */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * The cases of a group in turns, one short batch of each after the other, each
 * batch timed by the CPU time the process used rather than the wall clock.
 * On a shared machine whose load changes by the second, the cases of a ratio
 * then see the same conditions (turns), and time spent waiting for a core is
 * not counted against whichever case happened to be running (CPU time). A
 * case's rate is the median of its batches' rates. For bench:ci, where a short
 * run must give steady ratios; `npm run bench` keeps benchmark.js ({@link measure}).
 */
export function measureInterleaved(group: BenchGroup, options: InterleavedOptions = {}): Map<string, Measured> {
  const seconds = options.seconds ?? 1;
  const batchMs = options.batchMs ?? 10;
  // Warm-up: each case runs for 5 batch lengths (wall clock), compiling its hot path before any batch counts.
  for (const [, fn] of group.cases) {
    const until = performance.now() + 5 * batchMs;
    while (performance.now() < until) for (let i = 0; i < 100; i++) fn();
  }
  const sizes = group.cases.map(() => 100);
  const rates: number[][] = group.cases.map(() => []);
  const spent = group.cases.map(() => 0);
  while (spent.some((ms) => ms < seconds * 1000)) {
    group.cases.forEach(([, fn], c) => {
      const n = sizes[c]!;
      const wall = performance.now();
      const t0 = cpuMs();
      for (let i = 0; i < n; i++) fn();
      const took = cpuMs() - t0;
      const tookWall = performance.now() - wall;
      // The next batch sized to batchMs by this one (at most 4x larger or 2x smaller, so one preempted batch
      // does not swing it); only a batch near its size counts, where the CPU-time reading's own cost is lost.
      sizes[c] = Math.max(1, Math.round(n * Math.min(4, Math.max(0.5, batchMs / Math.max(tookWall, 0.001)))));
      if (took >= batchMs / 2) {
        spent[c]! += took;
        rates[c]!.push((n / took) * 1000);
      }
    });
  }
  const results = new Map<string, Measured>();
  group.cases.forEach(([name], c) => {
    const batchRates = rates[c]!;
    const mean = batchRates.reduce((a, b) => a + b, 0) / Math.max(1, batchRates.length);
    const sd = Math.sqrt(batchRates.reduce((a, r) => a + (r - mean) ** 2, 0) / Math.max(1, batchRates.length - 1));
    // rme as benchmark.js states it (95% confidence, normal approximation), over the batches.
    const rme = batchRates.length > 1 && mean > 0 ? ((1.96 * sd) / Math.sqrt(batchRates.length) / mean) * 100 : 0;
    results.set(name, { name, hz: median(batchRates) * (group.cases[c]![2] ?? 1), rme, samples: batchRates.length });
  });
  process.stderr.write(`  measured ${group.cases.length} cases in turns\n`);
  return results;
}

/** A rate as the tables print it. */
export function fmt(hz: number): string {
  return hz >= 1e6 ? `${(hz / 1e6).toFixed(2)} M/s` : `${(hz / 1e3).toFixed(1)} k/s`;
}

/** A group's figures and verdicts as data: what {@link report} prints and bench/ci.ts writes to results.json. */
export function evaluate(group: BenchGroup, results: Map<string, Measured>): GroupResult {
  const rate = (name: string) => {
    const hz = results.get(name)?.hz;
    return hz === undefined || !Number.isFinite(hz) ? null : hz;
  };
  const absolutes = (group.floors ?? []).map((f): AbsoluteResult => {
    const hz = rate(f.subject);
    return { label: f.label, subject: f.subject, rate: hz, goal: f.perSecond, met: hz !== null && hz >= f.perSecond };
  });
  const ratios = group.ratios.map((r): RatioResult => {
    const subject = rate(r.subject);
    const baseline = rate(r.baseline);
    const value = subject === null || baseline === null || baseline === 0 ? null : subject / baseline;
    return {
      label: r.label,
      subject: r.subject,
      baseline: r.baseline,
      value,
      goal: r.target,
      met: value !== null && value >= r.target,
    };
  });
  const cases = [...results.values()].map(
    (r): CaseResult => ({
      name: r.name,
      rate: r.hz,
      rme: r.rme,
      samples: r.samples,
      ...(r.display === undefined ? {} : { display: r.display }),
    }),
  );
  const met = (group.met ?? true) && absolutes.every((a) => a.met) && ratios.every((r) => r.met);
  return {
    title: group.title,
    cases,
    ratios,
    absolutes,
    notes: group.notes ?? [],
    ...(group.met === undefined ? {} : { verdict: group.met }),
    met,
  };
}

/** A group's result as Markdown, the form bench/RESULTS.md keeps; a miss says `NO` and is listed under the table. */
export function markdown(result: GroupResult): string {
  const lines = [`### ${result.title}`, '', '| case | rate | ±rme | samples |', '|---|---:|---:|---:|'];
  for (const r of result.cases)
    lines.push(`| ${r.name} | ${r.display ?? fmt(r.rate)} | ${r.rme.toFixed(1)}% | ${r.samples} |`);
  if (result.absolutes.length + result.ratios.length > 0)
    lines.push('', '| target | measured | goal | met |', '|---|---:|---:|:---:|');
  for (const a of result.absolutes)
    lines.push(
      `| ${a.label} | ${a.rate === null ? 'not measured' : fmt(a.rate)} | >= ${fmt(a.goal)} | ` +
        `${a.met ? 'yes' : 'NO'} |`,
    );
  for (const r of result.ratios)
    lines.push(
      `| ${r.label} | ${r.value === null ? 'not measured' : `${r.value.toFixed(2)}x`} | >= ${r.goal}x | ` +
        `${r.met ? 'yes' : 'NO'} |`,
    );
  for (const note of result.notes) lines.push('', note);
  if (result.verdict === false) lines.push('', "**MISSED: the group's own target (see its notes).**");
  return lines.join('\n') + '\n';
}

/** Every target a group result missed, one line each (empty when all were met). */
export function misses(result: GroupResult): string[] {
  const lines: string[] = [];
  for (const a of result.absolutes.filter((x) => !x.met))
    lines.push(`${a.label}: ${a.rate === null ? 'not measured' : fmt(a.rate)}, goal >= ${fmt(a.goal)}`);
  for (const r of result.ratios.filter((x) => !x.met))
    lines.push(`${r.label}: ${r.value === null ? 'not measured' : `${r.value.toFixed(2)}x`}, goal >= ${r.goal}x`);
  if (result.verdict === false) lines.push(`${result.title}: the group's own target`);
  return lines;
}

/** Prints a group's figures and its targets as Markdown; true when every target was met. */
export function report(group: BenchGroup, results: Map<string, Measured>): boolean {
  const result = evaluate(group, results);
  console.log(markdown(result));
  return result.met;
}
