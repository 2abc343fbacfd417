// In-process A/B of the native addon's `sign` (getToken's core): addon builds given as paths (this tree's
// adapters/native/build/Release/wallet_core.node, another worktree's) and the node:crypto baseline of bench:ci, on
// its 2 kB checkout body, in interleaved slices of 5,000 tokens; CPU time per token, medians over ROUNDS (default
// 40) and the median of each round's ratio to node:crypto. Steadier than benchmark.js on a shared machine.
//
// npx tsx bench/sign-ab.ts adapters/native/build/Release/wallet_core.node
// /other/tree/adapters/native/build/Release/wallet_core.node
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { createNodeCryptoSigner } from './baselines/node-crypto-token.js';
import { median } from './harness.js';
import { checkoutBody } from './token.bench.js';

interface SignCore {
  sign(text: string, iat: number): string | number;
}
type AddonCore = new (...args: unknown[]) => SignCore;

const require = createRequire(import.meta.url);
const KEY = '0123456789abcdef0123456789abcdef';
const body = checkoutBody();
const paths = process.argv.slice(2);
if (paths.length === 0) throw new Error('usage: tsx bench/sign-ab.ts <wallet_core.node>...');
const subjects: Array<[string, () => unknown]> = paths.map((path) => {
  const { Core } = require(resolve(path)) as { Core: AddonCore };
  // SHA-256, 8 digits, 30 s, 8-character sessions, window 1, prefix CM, ';', the key, no kid, rfc6238, no previous
  // keys.
  const core = new Core(2, 8, 30, 8, 1, 'CM', ';', KEY, '', 0, []);
  return [path, () => core.sign(body, 1_764_230_000)];
});
const node = createNodeCryptoSigner(KEY, { validateJson: false });
subjects.push(['node:crypto createHmac, same JWS', () => node(body)]);

const SLICE = 5000;
const ROUNDS = Number(process.env.ROUNDS ?? 40);
const times = subjects.map(() => [] as number[]);
let sink = 0;
for (let round = 0; round < ROUNDS + 3; round++) {
  subjects.forEach(([, sign], k) => {
    const started = process.cpuUsage();
    for (let i = 0; i < SLICE; i++) sink += String(sign()).length;
    const spent = process.cpuUsage(started);
    if (round >= 3) times[k]!.push(((spent.user + spent.system) * 1000) / SLICE); // the first rounds warm up
  });
}
const baseline = times[times.length - 1]!;
for (const [k, [name]] of subjects.slice(0, -1).entries()) {
  const paired = median(times[k]!.map((t, round) => baseline[round]! / t));
  process.stdout.write(
    `${name}: ${median(times[k]!).toFixed(0)} ns a token, ${paired.toFixed(2)}x node:crypto (median of paired ` +
      `rounds)\n`,
  );
}
process.stdout.write(`node:crypto: ${median(baseline).toFixed(0)} ns a token${sink > 0 ? '' : ' '}\n`);
