import { cpus } from 'node:os';
import { calibrationGroup } from './calibration.bench.js';
import { type BenchGroup, measure, report } from './harness.js';
import { tokenGroup } from './token.bench.js';
import { verifyGroup } from './verify.bench.js';

// Every group measures its subject and its baselines in the same process, one
// after the other on one thread, so a ratio compares like with like on a noisy,
// shared machine. BENCH_MAX_TIME (seconds per case, default 3) trades time for precision.
const groups: Array<() => BenchGroup> = [calibrationGroup, verifyGroup, tokenGroup];
const only = process.argv[2];

console.log(`# wallet-partner-kit benchmarks\n\n${new Date().toISOString()} · node ${process.version} · ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}\n`);
let allMet = true;
for (const make of groups) {
  const group = make();
  if (only && !group.title.toLowerCase().includes(only.toLowerCase())) continue;
  process.stderr.write(`${group.title}\n`);
  allMet = report(group, measure(group)) && allMet;
}
console.log(allMet ? 'All targets met.' : 'Some targets were not met (see the tables above).');
