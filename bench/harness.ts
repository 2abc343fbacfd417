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
  /** Each case, and how many operations one call of it does (default 1): its rate is per operation. */
  cases: Array<[name: string, fn: () => unknown, perCall?: number]>;
  ratios: Ratio[];
  floors?: Floor[];
  notes?: string[];
  /** A verdict the group reached itself (e.g. an absolute time it states in its notes); false fails the run like a missed ratio. */
  met?: boolean;
}

const MAX_TIME = Number(process.env.BENCH_MAX_TIME ?? 3);

/** Runs the cases of a group one after the other (benchmark.js, synchronous). */
export function measure(group: BenchGroup): Map<string, Measured> {
  const results = new Map<string, Measured>();
  const suite = new Benchmark.Suite(group.title);
  const perCall = new Map<string, number>();
  for (const [name, fn, times] of group.cases) {
    perCall.set(name, times ?? 1);
    suite.add(name, fn, { maxTime: MAX_TIME, minSamples: 10 });
  }
  suite.on('cycle', (event: Benchmark.Event) => {
    const b = event.target as unknown as Benchmark & { name: string };
    results.set(b.name, { name: b.name, hz: b.hz * perCall.get(b.name)!, rme: b.stats.rme, samples: b.stats.sample.length });
    process.stderr.write(`  measured ${b.name}\n`);
  });
  suite.run({ async: false });
  return results;
}

function fmt(hz: number): string {
  return hz >= 1e6 ? `${(hz / 1e6).toFixed(2)} M/s` : `${(hz / 1e3).toFixed(1)} k/s`;
}

/** Prints a group's figures and its targets as Markdown, the form bench/RESULTS.md keeps. */
export function report(group: BenchGroup, results: Map<string, Measured>): boolean {
  const lines = [`### ${group.title}`, '', '| case | rate | ±rme | samples |', '|---|---:|---:|---:|'];
  for (const r of results.values()) lines.push(`| ${r.name} | ${r.display ?? fmt(r.hz)} | ${r.rme.toFixed(1)}% | ${r.samples} |`);
  if ((group.floors ?? []).length + group.ratios.length > 0) lines.push('', '| target | measured | goal | met |', '|---|---:|---:|:---:|');
  let allMet = group.met ?? true;
  for (const f of group.floors ?? []) {
    const hz = results.get(f.subject)!.hz;
    const met = hz >= f.perSecond;
    allMet &&= met;
    lines.push(`| ${f.label} | ${fmt(hz)} | >= ${fmt(f.perSecond)} | ${met ? 'yes' : 'NO'} |`);
  }
  for (const r of group.ratios) {
    const ratio = results.get(r.subject)!.hz / results.get(r.baseline)!.hz;
    const met = ratio >= r.target;
    allMet &&= met;
    lines.push(`| ${r.label} | ${ratio.toFixed(2)}x | >= ${r.target}x | ${met ? 'yes' : 'NO'} |`);
  }
  for (const note of group.notes ?? []) lines.push('', note);
  console.log(lines.join('\n') + '\n');
  return allMet;
}
