// The per-verification metric work of the cash desk (a bound series, the latency and drift histograms,
// a key series) and the per-answer HTTP request count, in the tree before (BENCH_BEFORE_TREE) and this one, in one
// process, alternating: `BENCH_BEFORE_TREE=<tree> tsx bench/metrics-ab.ts`. In-process, so the figures hold better
// on a shared machine than the servers' throughput.
import Benchmark from 'benchmark';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

type Metrics = {
  verifications: { series(l: Record<string, string>): { inc(by?: number): void } };
  keyMatches: { series(l: Record<string, string>): { inc(by?: number): void } };
  verifyDuration: { observe(v: number): void };
  driftSteps: { observe(v: number): void };
  httpRequests: unknown;
};
type Counting = new (
  c: () => unknown,
  l: readonly [string, string],
) => { count(a: string, b: number): void; flush?(): void };
// Trees before 2026-11-26 name the counter TurnCounter and publish a turn's counts on flush(); later ones count at
// once.
type Module = { ServerMetrics: new () => Metrics; SeriesCounter?: Counting; TurnCounter?: Counting };

const before = process.env.BENCH_BEFORE_TREE;
if (before === undefined) throw new Error('set BENCH_BEFORE_TREE to the tree to compare with');
const trees: Array<[string, Module]> = [
  ['before', (await import(pathToFileURL(join(before, 'src/cashdesk/metrics.ts')).href)) as Module],
  ['after', (await import(new URL('../src/cashdesk/metrics.ts', import.meta.url).href)) as Module],
];
const suite = new Benchmark.Suite();
for (const [name, m] of trees) {
  const metrics = new m.ServerMetrics();
  const valid = metrics.verifications.series({ result_code: 'VALID', reason: '' });
  const key = metrics.keyMatches.series({ key_index: '0' });
  const requests = new (m.SeriesCounter ?? m.TurnCounter)!(() => metrics.httpRequests, ['route', 'status']);
  let i = 0;
  suite.add(
    `${name}: one verification's metrics and its HTTP answer counted (flush per 32)`,
    () => {
      valid.inc();
      key.inc();
      metrics.verifyDuration.observe(0.000_03);
      metrics.driftSteps.observe(0);
      requests.count('/v1/barcode/verify', 200);
      if (++i % 32 === 0) requests.flush?.();
    },
    { maxTime: Number(process.env.BENCH_MAX_TIME ?? 3) },
  );
}
suite.on('cycle', (e: Benchmark.Event) => console.log(String(e.target))).run({ async: false });
