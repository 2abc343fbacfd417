// A/B of HTTP verify servers, for work on the HTTP adapter: each server script given (a file of
// bench/servers, or an absolute path, e.g. another worktree's bench/servers/kit.ts) is started pinned to core 0,
// warmed up, then loaded on POST /v1/barcode/verify (the bare servers answer any path) in interleaved rounds;
// prints each round's rate and server CPU per request, and the medians. On a shared machine a round's CPU per
// request moves by tens of percent, every server alike: compare servers within a round, or by instruction counts
// (bench/callgrind-http.sh).
//
//   npx tsx bench/http-ab.ts kit.ts plain-http.ts [/other/tree/bench/servers/kit.ts]
//   AB_ROUNDS=9 AB_SECONDS=2 npx tsx bench/http-ab.ts ...
import { median } from './harness.js';
import { httpLoad, pinLoadToCore1, startBenchServer } from './load.js';
import { auth, demoBarcode } from './server.bench.js';

const scripts = process.argv.slice(2);
if (scripts.length === 0) throw new Error('usage: tsx bench/http-ab.ts <server script>...');
const rounds = Number(process.env.AB_ROUNDS ?? 7);
const seconds = Number(process.env.AB_SECONDS ?? 2);

const body = JSON.stringify({ fullBarcode: demoBarcode() });

const unpin = pinLoadToCore1();
const servers = await Promise.all(scripts.map((s) => startBenchServer(s)));
try {
  const load = (i: number, s: number) =>
    httpLoad(scripts[i]!, `http://127.0.0.1:${servers[i]!.port}/v1/barcode/verify`, body, auth, servers[i], 1, s);
  for (let i = 0; i < scripts.length; i++) await load(i, 3);
  const rates = scripts.map(() => [] as number[]);
  const cpus = scripts.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    const line: string[] = [];
    for (let i = 0; i < scripts.length; i++) {
      const m = await load(i, seconds);
      rates[i]!.push(m.hz);
      cpus[i]!.push(m.cpuMicrosPerRequest ?? NaN);
      line.push(`${(m.hz / 1000).toFixed(1)} k/s ${m.cpuMicrosPerRequest?.toFixed(1)} µs`);
    }
    process.stdout.write(`round ${round + 1}: ${line.join(' | ')}\n`);
  }
  for (let i = 0; i < scripts.length; i++) {
    process.stdout.write(
      `${scripts[i]}: median ${(median(rates[i]!) / 1000).toFixed(2)} k/s, ${median(cpus[i]!).toFixed(1)} µs ` +
        `CPU/request` +
        (i > 0 ? `, CPU ratio ${scripts[0]} / this ${(median(cpus[0]!) / median(cpus[i]!)).toFixed(3)}` : '') +
        '\n',
    );
  }
} finally {
  for (const s of servers) s.stop();
  unpin();
}
