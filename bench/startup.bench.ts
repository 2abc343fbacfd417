import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type BenchGroup, type Measured, median } from './harness.js';

const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 7);
/** The goal: sandbox and loyalty listen, banner printed, in under 1.5 s with PGlite in memory. */
const TARGET_MS = 1500;
const root = join(import.meta.dirname, '..');
const cli = join(root, 'dist', 'src', 'cli', 'main.js');

/**
 * What one start-up took, from spawn: its first stdout line with the banner's URL, and its first answer to a request.
 */
interface Start {
  bannerMs: number;
  readyMs: number;
}

interface Subject {
  name: string;
  args: string[];
}

// A bare node:http server printing a banner-like line: what any Node server costs to start on this machine, now.
const BARE_HTTP = `require('node:http').createServer((q, s) => s.end('ok')).listen(0, '127.0.0.1', function () {
  process.stdout.write('  URL        http://127.0.0.1:' + this.address().port + '\\n');
});`;

/**
 * BENCH_STARTUP_COMPARE=<folder of another built checkout> (e.g. the commit
 * before a change, with its own dist/ and build/) adds its two CLIs to the
 * same rounds: before and after measured on one machine state.
 */
const compare = process.env.BENCH_STARTUP_COMPARE;
const CLIS: Array<[label: string, path: string]> = [
  ['', cli],
  ...(compare ? [[' (compared tree)', join(compare, 'dist', 'src', 'cli', 'main.js')] as [string, string]] : []),
];

const SUBJECTS: Subject[] = [
  { name: 'node -e, print a line (baseline)', args: ['-e', "console.log('  URL        http://127.0.0.1:0')"] },
  { name: 'bare node:http server (baseline)', args: ['-e', BARE_HTTP] },
  ...CLIS.flatMap(([label, path]) => [
    { name: `sandbox --demo --port 0${label}`, args: [path, 'sandbox', '--demo', '--port', '0'] },
    { name: `loyalty --demo --port 0${label}`, args: [path, 'loyalty', '--demo', '--port', '0'] },
  ]),
];

/**
 * When the server answers a real request: one request to a path no server has,
 * sent right after the banner. A server still starting holds it until it is
 * ready (then 404); polling /healthz instead would load the start-up it measures.
 */
async function answered(url: string, started: number): Promise<number> {
  const res = await fetch(`${url}/wpk-bench-ready`, { signal: AbortSignal.timeout(120_000) });
  await res.arrayBuffer();
  return performance.now() - started;
}

/** Starts `args` under node, waits for the banner (and the first answer when it serves), stops it. */
function startOnce(args: string[]): Promise<Start> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let settled = false;
    const finish = (error: Error | undefined, start?: Start) => {
      if (settled) return;
      settled = true;
      child.once('exit', () => (error ? reject(error) : resolve(start!)));
      if (child.exitCode !== null || child.signalCode !== null) child.emit('exit');
      else child.kill('SIGTERM');
    };
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.stdout.on('data', (chunk: Buffer) => {
      if (settled) return;
      out += chunk.toString();
      const match = /URL\s+(http:\/\/[^\s]+)/.exec(out);
      if (!match) return;
      const bannerMs = performance.now() - started;
      if (match[1]!.endsWith(':0')) return finish(undefined, { bannerMs, readyMs: bannerMs });
      answered(match[1]!, started).then(
        (readyMs) => finish(undefined, { bannerMs, readyMs }),
        (error: Error) => finish(error),
      );
    });
    child.once('exit', (code) =>
      finish(new Error(`${args.join(' ')} exited (${code}) before its banner: ${err.trim().split('\n').at(-1) ?? ''}`)),
    );
  });
}

/**
 * The fast start: time from spawn to the banner (and to the first
 * answer to a request) of `sandbox --demo` and `loyalty --demo` on the built CLI
 * (dist/), against a process printing a line and a bare node:http server,
 * started in turn RUNS times each so they share the machine's state. The
 * minimum is the figure for a quiet moment; the median is what a busy one gives.
 */
export async function startupGroups(): Promise<Array<{ group: BenchGroup; results: Map<string, Measured> }>> {
  if (!existsSync(cli)) throw new Error('startup bench: dist/src/cli/main.js is missing (npm run build:ts)');
  const starts = new Map<string, Start[]>(SUBJECTS.map((s) => [s.name, []]));
  await startOnce(SUBJECTS[0]!.args); // warms the file cache; not counted
  for (let run = 0; run < RUNS; run++) {
    for (const subject of SUBJECTS) starts.get(subject.name)!.push(await startOnce(subject.args));
    process.stderr.write(`  start-up round ${run + 1}/${RUNS}\n`);
  }
  const results = new Map<string, Measured>();
  const lines = [
    '| start-up | banner, min | banner, median | first answer, min | first answer, median | banner median / bare ' +
      'server |',
    '|---|---:|---:|---:|---:|',
  ];
  const bare = median(starts.get(SUBJECTS[1]!.name)!.map((s) => s.bannerMs));
  const notes: string[] = [];
  let met = true;
  for (const subject of SUBJECTS) {
    const all = starts.get(subject.name)!;
    const banner = all.map((s) => s.bannerMs);
    const min = Math.min(...banner);
    const med = median(banner);
    const sd = Math.sqrt(banner.reduce((a, b) => a + (b - med) ** 2, 0) / Math.max(1, banner.length - 1));
    results.set(subject.name, {
      name: subject.name,
      hz: 1000 / med,
      rme: (100 * sd) / med,
      samples: banner.length,
      display: `${med.toFixed(0)} ms to banner`,
    });
    const ready = all.map((s) => s.readyMs);
    lines.push(
      `| ${subject.name} | ${min.toFixed(0)} ms | ${med.toFixed(0)} ms | ${Math.min(...ready).toFixed(0)} ms | ` +
        `${median(ready).toFixed(0)} ms | ${(med / bare).toFixed(1)}x |`,
    );
    if (subject.args[0] === cli) {
      // the compared tree is reported, not judged
      const ok = min < TARGET_MS;
      met &&= ok;
      notes.push(
        `${subject.name}: fastest banner ${min.toFixed(0)} ms, target < ${TARGET_MS} ms: ${ok ? 'met' : 'NOT met'}`,
      );
    }
  }
  notes.unshift(lines.join('\n'));
  return [{ group: { title: 'Start-up: time to banner (issue 10)', cases: [], ratios: [], notes, met }, results }];
}
