import { cpus } from 'node:os';
import { calibrationGroup } from './calibration.bench.js';
import { type BenchGroup, evaluate, markdown, type Measured, measure, misses } from './harness.js';
import { nativeGroup } from './native.bench.js';
import { serverGroups } from './server.bench.js';
import { tokenGroup } from './token.bench.js';
import { verifyGroup } from './verify.bench.js';
import { verifyCoreGroup, verifyCoreNativeGroup } from './verify-core.bench.js';
import { callbackGroups } from './callback.bench.js';
import { loyaltyGroups } from './loyalty.bench.js';
import { payClientGroups } from './pay-client.bench.js';
import { pushGroups } from './push.bench.js';
import { sandboxPayGroups } from './sandbox-pay.bench.js';
import { sandboxPushGroups } from './sandbox-push.bench.js';
import { startupGroups } from './startup.bench.js';
import { tillsGroups } from './tills.bench.js';
import { idleTillsGroups } from './idle-tills.bench.js';

// Every group measures its subject and its baselines in the same run, one after
// the other, so a ratio compares like with like on a noisy, shared machine.
// In-process groups run on one thread (benchmark.js; BENCH_MAX_TIME seconds per
// case, default 3); server groups put the server on core 0 and the load on core 1.
// `npm run bench -- <word>` runs only the groups whose title contains the word.
// It always exits 0 (a figure here is for reading, on whatever machine); every
// missed target is listed again at the end. `npm run bench:ci` (bench/ci.ts)
// runs the groups that matter, short, and fails only under bench/floors.json.
const groups: Array<() => BenchGroup> = [
  calibrationGroup,
  verifyGroup,
  () => verifyCoreGroup(),
  tokenGroup,
  nativeGroup,
  verifyCoreNativeGroup,
];
const only = process.argv[2]?.toLowerCase();
const wanted = (title: string) => !only || title.toLowerCase().includes(only);

console.log(
  `# wallet-partner-kit benchmarks\n\n${new Date().toISOString()} · node ${process.version} · ` +
    `${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}\n`,
);
const missed: string[] = [];
/** Prints a group's table and remembers what it missed. */
function show(group: BenchGroup, results: Map<string, Measured>): void {
  const result = evaluate(group, results);
  console.log(markdown(result));
  missed.push(...misses(result));
}
for (const make of groups) {
  const group = make();
  if (!wanted(group.title)) continue;
  process.stderr.write(`${group.title}\n`);
  show(group, measure(group));
}
if (!only || 'server http websocket bridge'.includes(only)) {
  for (const { group, results } of await serverGroups()) show(group, results);
}
// Issues 4-6: servers and clients over real sockets, each against a baseline in the same run.
const asyncGroups: Array<
  [words: string, run: () => Promise<Array<{ group: BenchGroup; results: Map<string, Measured> }>>]
> = [
  ['sandbox pay checkout status', sandboxPayGroups],
  ['pay client', payClientGroups],
  ['sandbox push batch', sandboxPushGroups],
  ['push campaign', pushGroups],
  ['callback receiver webhook signature', callbackGroups],
  ['loyalty', loyaltyGroups],
  // Tills paying through the cash desk server's bridge.
  ['tills pay bridge payments', tillsGroups],
  // Idle tills on one server: verify latency and event-loop stalls with 10k of them connected (about 2 minutes).
  ['idle tills heartbeat stall', idleTillsGroups],
  // Time to banner of the sandbox and Loyalty CLIs (the built package, dist/).
  ['startup start-up banner', startupGroups],
];
for (const [words, run] of asyncGroups) {
  if (only && !words.includes(only)) continue;
  for (const { group, results } of await run()) show(group, results);
}
console.log(
  missed.length === 0
    ? 'All targets met.'
    : `MISSED ${missed.length} target(s) (the run still exits 0; bench:ci enforces ` +
        `bench/floors.json):\n${missed.map((m) => `  - ${m}`).join('\n')}`,
);
