import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { finishResults, gitCommit, machineInfo, summaryMarkdown, type CiResults } from './ci-report.js';
import { checkFloors, readFloors } from './floors.js';
import { evaluate, type BenchGroup, type GroupResult } from './harness.js';
import { medianRepeats } from './repeats.js';

// `npm run bench:ci`: the groups that matter, short, for CI on a small machine
// (about 2 minutes on 2 cores). The in-process groups run their cases in turns,
// timed in CPU seconds (harness.ts measureInterleaved: steadier ratios on a busy
// machine than benchmark.js); the server groups are repeated (5 times) and their median
// repeat kept (repeats.ts). Writes bench/out/results.json and
// bench/out/summary.md, prints the summary, and exits 1 only when a ratio is
// under its floor in bench/floors.json (or a ratio its group declares was not
// measured): a goal missed above its floor is noise or a known gap, reported but
// not failed. Absolute rates only report, unless floors.json gives one a floor.
//
// `tsx bench/ci.ts --check FILE` re-checks a results.json against the floors
// (after editing floors.json, or in a test) without measuring.
//
// To put a group in CI: import it below; its ratios get the default floor
// (defaultFraction of the goal) until floors.json gives them their own.
const here = import.meta.dirname;
const floorsPath = process.env.BENCH_FLOORS ?? join(here, 'floors.json');
const outDir = process.env.BENCH_OUT ?? join(here, 'out');

if (process.argv[2] === '--check') {
  const file = process.argv[3];
  if (file === undefined) throw new Error('usage: tsx bench/ci.ts --check results.json');
  const previous = JSON.parse(readFileSync(file, 'utf8')) as CiResults;
  const verdict = checkFloors(previous.groups, readFloors(floorsPath));
  const results = {
    ...previous,
    checks: verdict.checks,
    failures: verdict.failures,
    warnings: verdict.warnings,
    passed: verdict.passed,
  };
  process.stdout.write(summaryMarkdown(results));
  process.exitCode = verdict.passed ? 0 : 1;
} else {
  await run();
}

async function run(): Promise<void> {
  // Short settings, each overridable; set before the groups are imported (bench/load.ts reads them at import).
  // BENCH_MAX_TIME: CPU seconds per in-process case; BENCH_ROUNDS x BENCH_LOAD_SECONDS: each server load;
  // BENCH_WARMUP_SECONDS: each server case's unmeasured load before its first round.
  process.env.BENCH_MAX_TIME ??= '0.5';
  process.env.BENCH_ROUNDS ??= '1';
  process.env.BENCH_LOAD_SECONDS ??= '2';
  process.env.BENCH_WARMUP_SECONDS ??= '3';
  const repeats = Number(process.env.BENCH_CI_SERVER_REPEATS ?? 5);
  const settings = {
    cpuSecondsPerCase: Number(process.env.BENCH_MAX_TIME),
    loadRounds: Number(process.env.BENCH_ROUNDS),
    loadSecondsPerRound: Number(process.env.BENCH_LOAD_SECONDS),
    serverRepeats: repeats,
    warmupSecondsPerCase: Number(process.env.BENCH_WARMUP_SECONDS),
  };
  const floors = readFloors(floorsPath); // a broken floors file fails before minutes of measuring
  const started = { at: new Date(), ms: performance.now(), machine: machineInfo() };
  const { measureInterleaved } = await import('./harness.js');
  const { calibrationGroup } = await import('./calibration.bench.js');
  const { verifyGroup } = await import('./verify.bench.js');
  const { tokenGroup } = await import('./token.bench.js');
  const { nativeGroup } = await import('./native.bench.js');
  const { verifyCoreGroup, verifyCoreNativeGroup } = await import('./verify-core.bench.js');
  const { serverGroupRepeats } = await import('./server.bench.js');

  const groups: GroupResult[] = [];
  // The core paths carry rate goals of their own (rfc6238 memoised, card-bound batch on distinct cards): reported
  // as absolutes, which only fail under a floor floors.json gives them; their batch-vs-single ratios get the default.
  const coreGroups = [() => verifyCoreGroup('wasm'), verifyCoreNativeGroup];
  for (const make of [calibrationGroup, verifyGroup, tokenGroup, nativeGroup, ...coreGroups] as Array<
    () => BenchGroup
  >) {
    const group = make();
    process.stderr.write(`${group.title}\n`);
    groups.push(evaluate(group, measureInterleaved(group, { seconds: settings.cpuSecondsPerCase })));
  }
  // The server groups measure their subject's rounds, then their baseline's: a machine whose load changes in
  // between skews the ratio. Short repeats interleave the two in time, and the median repeat is kept. The servers
  // are started and warmed up once (BENCH_WARMUP_SECONDS per case), then take every repeat's rounds.
  process.stderr.write(`cash desk server: HTTP and bridge against bare servers (${repeats} repeats)\n`);
  const runs = await serverGroupRepeats(repeats);
  groups.push(...medianRepeats(runs));

  const results = finishResults(started, gitCommit(join(here, '..')), settings, groups, checkFloors(groups, floors));
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'results.json'), JSON.stringify(results, null, 2) + '\n');
  const summary = summaryMarkdown(results);
  writeFileSync(join(outDir, 'summary.md'), summary);
  process.stdout.write(summary);
  process.stdout.write(
    `\nbench:ci ${results.passed ? 'passed' : 'FAILED'} in ${results.durationSeconds} s; wrote ` +
      `${join(outDir, 'results.json')} and summary.md\n`,
  );
  process.exitCode = results.passed ? 0 : 1;
}
