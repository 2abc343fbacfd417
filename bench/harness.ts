import Benchmark from 'benchmark';

/** One measured case. */
export interface Measured {
  name: string;
  hz: number;
  rme: number;
  samples: number;
  /** Shown in the rate column instead of `hz` (e.g. a latency or a count a group expresses as a rate for its ratios). */
  display?: string;
}

/** A comparison the issue sets a target for: `subject / baseline >= target`. */
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
  cases: Array<[name: string, fn: () => unknown]>;
  ratios: Ratio[];
  floors?: Floor[];
  notes?: string[];
  /** A verdict the group reached itself (e.g. an absolute time it states in its notes); false fails the run like a missed ratio. */
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
  for (const [name, fn] of group.cases) suite.add(name, fn, { maxTime, minSamples: 10 });
  suite.on('cycle', (event: Benchmark.Event) => {
    const b = event.target as unknown as Benchmark & { name: string };
    results.set(b.name, { name: b.name, hz: b.hz, rme: b.stats.rme, samples: b.stats.sample.length });
    process.stderr.write(`  measured ${b.name}\n`);
  });
  suite.run({ async: false });
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
    return { label: r.label, subject: r.subject, baseline: r.baseline, value, goal: r.target, met: value !== null && value >= r.target };
  });
  const cases = [...results.values()].map((r): CaseResult => ({
    name: r.name, rate: r.hz, rme: r.rme, samples: r.samples, ...(r.display === undefined ? {} : { display: r.display }),
  }));
  const met = (group.met ?? true) && absolutes.every((a) => a.met) && ratios.every((r) => r.met);
  return { title: group.title, cases, ratios, absolutes, notes: group.notes ?? [], ...(group.met === undefined ? {} : { verdict: group.met }), met };
}

/** A group's result as Markdown, the form bench/RESULTS.md keeps; a miss says `NO` and is listed under the table. */
export function markdown(result: GroupResult): string {
  const lines = [`### ${result.title}`, '', '| case | rate | ±rme | samples |', '|---|---:|---:|---:|'];
  for (const r of result.cases) lines.push(`| ${r.name} | ${r.display ?? fmt(r.rate)} | ${r.rme.toFixed(1)}% | ${r.samples} |`);
  if (result.absolutes.length + result.ratios.length > 0) lines.push('', '| target | measured | goal | met |', '|---|---:|---:|:---:|');
  for (const a of result.absolutes) lines.push(`| ${a.label} | ${a.rate === null ? 'not measured' : fmt(a.rate)} | >= ${fmt(a.goal)} | ${a.met ? 'yes' : 'NO'} |`);
  for (const r of result.ratios) lines.push(`| ${r.label} | ${r.value === null ? 'not measured' : `${r.value.toFixed(2)}x`} | >= ${r.goal}x | ${r.met ? 'yes' : 'NO'} |`);
  for (const note of result.notes) lines.push('', note);
  if (result.verdict === false) lines.push('', '**MISSED: the group\'s own target (see its notes).**');
  return lines.join('\n') + '\n';
}

/** Every target a group result missed, one line each (empty when all were met). */
export function misses(result: GroupResult): string[] {
  const lines: string[] = [];
  for (const a of result.absolutes.filter((x) => !x.met)) lines.push(`${a.label}: ${a.rate === null ? 'not measured' : fmt(a.rate)}, goal >= ${fmt(a.goal)}`);
  for (const r of result.ratios.filter((x) => !x.met)) lines.push(`${r.label}: ${r.value === null ? 'not measured' : `${r.value.toFixed(2)}x`}, goal >= ${r.goal}x`);
  if (result.verdict === false) lines.push(`${result.title}: the group's own target`);
  return lines;
}

/** Prints a group's figures and its targets as Markdown; true when every target was met. */
export function report(group: BenchGroup, results: Map<string, Measured>): boolean {
  const result = evaluate(group, results);
  console.log(markdown(result));
  return result.met;
}
