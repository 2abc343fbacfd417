import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { softFdLimit } from '../adapters/http-server/connection-gate.js';
import { demoConfig } from '../src/demo.js';
import type { BenchGroup, Measured } from './harness.js';
import { checkBuildIsFresh, pin, renice, startProbe, startServeConfig } from './tills-processes.js';

// Idle tills on one cash desk server (serve from dist/, alone on core 0), and one probe till calling
// barcode.verify at a steady rate (its own process, core 1): the probe's p99 and the server's longest
// event-loop stall without idle tills, then with IDLE_TILLS connected, measured long enough to cover a
// whole heartbeat interval (30 s: every idle till pinged once).
const IDLE_TILLS = Number(process.env.BENCH_IDLE_TILLS ?? 10_000);
const RATE = Number(process.env.BENCH_IDLE_RATE ?? 200);
const BASELINE_MS = Number(process.env.BENCH_IDLE_BASELINE_MS ?? 20_000);
const LOADED_MS = Number(process.env.BENCH_IDLE_LOADED_MS ?? 35_000);
const WARM_UP_MS = 3_000;
const STALL_LIMIT_MS = 50;
const LOOP_RESOLUTION_MS = 10;
const root = join(import.meta.dirname, '..');
const PROBE_KEY = 'bench-probe-key-not-secret';
const IDLE_KEY = 'bench-idle-key-not-secret';
/** Descriptors each side needs besides the sockets: node's own, logs, the probe. */
const SPARE_FDS = 1_024;

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(q * values.length) - 1)]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface LoopDelay {
  maxMs: number;
  p99Ms: number;
  meanMs: number;
  samples: number;
}

/** What the server's event loop went through since the last call (bench/servers/loop-delay.mjs, on SIGUSR2). */
async function loopDelay(pid: number, file: string): Promise<LoopDelay> {
  rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 500 && !existsSync(file); i++) await sleep(10);
  return JSON.parse(readFileSync(file, 'utf8')) as LoopDelay;
}

/** The idle tills' process (bench/idle-tills.ts) under a raised `ulimit -n`, pinned to `cores`. */
async function startIdleTills(wsUrl: string, count: number, cores: string) {
  const script = `ulimit -n ${count + SPARE_FDS} 2>/dev/null || ulimit -n "$(ulimit -Hn)"; exec "$@"`;
  const tillsScript = join(root, 'bench/idle-tills.ts');
  const argv = ['taskset', '-c', cores, process.execPath, '--import', 'tsx', tillsScript, wsUrl, IDLE_KEY, `${count}`];
  // The shell execs node, which finds the IPC channel its parent opened (NODE_CHANNEL_FD) as a fork would.
  const child = spawn('sh', ['-c', script, 'sh', ...argv], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ask = <T>(message?: string) =>
    new Promise<T>((resolve, reject) => {
      child.once('message', (answer) => resolve(answer as T));
      void exited.then(() => reject(new Error('idle tills process exited')));
      if (message !== undefined) child.send(message);
    });
  const tried = await ask<{ connected: number; refused: number }>();
  return {
    ...tried,
    open: async () => (await ask<{ open: number }>('count')).open,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * barcode.verify at RATE calls a second (an open loop: latency from when each call was due) with IDLE_TILLS
 * idle tills connected against none, in one run: p99 within 2x, and no event-loop stall over 50 ms.
 */
export async function idleTillsGroups(): Promise<Array<{ group: BenchGroup; results: Map<string, Measured> }>> {
  checkBuildIsFresh();
  pin('1', process.pid);
  const stops: Array<() => unknown> = [() => pin('0,1', process.pid)];
  try {
    const delayFile = join(tmpdir(), `wpk-loop-delay-${process.pid}.json`);
    const headroom = IDLE_TILLS + SPARE_FDS;
    const server = await startServeConfig(
      {
        verifier: demoConfig.verifier,
        tills: [
          { id: 'bench-probe', key: PROBE_KEY },
          { id: 'bench-idle', key: IDLE_KEY },
        ],
        server: {
          port: 0,
          maxWsConnections: IDLE_TILLS + 10,
          maxWsConnectionsPerTill: IDLE_TILLS + 10,
          maxConnections: headroom,
        },
      },
      '0',
      {
        nodeOptions: ['--import', join(root, 'bench/servers/loop-delay.mjs')],
        env: { BENCH_LOOP_DELAY_FILE: delayFile },
        nofile: headroom,
      },
    );
    stops.push(
      () => server.stop(),
      () => rmSync(delayFile, { force: true }),
    );
    const wsUrl = `ws://127.0.0.1:${server.port}/ws`;
    const probe = await startProbe(wsUrl, PROBE_KEY, '1');
    renice(-10, probe.pid);
    stops.push(() => probe.stop());
    const run = async (ms: number) => {
      const stop = probe.start(RATE);
      await sleep(ms);
      return await stop();
    };

    await run(WARM_UP_MS);
    await loopDelay(server.pid, delayFile);
    const baseline = await run(BASELINE_MS);
    const baselineLoop = await loopDelay(server.pid, delayFile);
    process.stderr.write(`  baseline: ${baseline.length} calls; connecting ${IDLE_TILLS} idle tills\n`);

    const idle = await startIdleTills(wsUrl, IDLE_TILLS, '1');
    stops.push(() => idle.stop());
    process.stderr.write(`  ${idle.connected} idle tills connected, ${idle.refused} refused; measuring\n`);
    await loopDelay(server.pid, delayFile);
    const loaded = await run(LOADED_MS);
    const loadedLoop = await loopDelay(server.pid, delayFile);
    const stillOpen = await idle.open();

    const names = {
      idle: `barcode.verify p99 at ${RATE}/s with ${idle.connected} idle tills`,
      base: `barcode.verify p99 at ${RATE}/s, no idle tills`,
      stall: `longest event-loop stall with ${idle.connected} idle tills`,
      stallBase: 'longest event-loop stall, no idle tills',
    };
    const p99 = (name: string, values: number[]): Measured => ({
      name,
      hz: 1000 / quantile(values, 0.99),
      rme: 0,
      samples: values.length,
      display:
        `${quantile(values, 0.99).toFixed(2)} ms (p50 ${quantile(values, 0.5).toFixed(2)}, ` +
        `max ${Math.max(...values).toFixed(1)})`,
    });
    // The histogram records each 10 ms timer period whole: a stall is what a period took beyond it.
    const stallMs = (seen: LoopDelay) => Math.max(0, seen.maxMs - LOOP_RESOLUTION_MS);
    const stall = (name: string, seen: LoopDelay): Measured => ({
      name,
      hz: 1000 / Math.max(stallMs(seen), 0.001),
      rme: 0,
      samples: seen.samples,
      display:
        `${stallMs(seen).toFixed(1)} ms (timer periods: max ${seen.maxMs.toFixed(1)}, ` +
        `p99 ${seen.p99Ms.toFixed(1)}, mean ${seen.meanMs.toFixed(1)})`,
    });
    const stalled = stallMs(loadedLoop);
    const results = new Map<string, Measured>([
      [names.idle, p99(names.idle, loaded)],
      [names.base, p99(names.base, baseline)],
      [names.stall, stall(names.stall, loadedLoop)],
      [names.stallBase, stall(names.stallBase, baselineLoop)],
    ]);
    const group: BenchGroup = {
      title: `${IDLE_TILLS} idle tills on one cash desk server (serve from dist/ on core 0; tills and probe on core 1)`,
      cases: [],
      ratios: [
        {
          label: 'barcode.verify p99 with idle tills vs without (>= 0.5x = within 2x)',
          subject: names.idle,
          baseline: names.base,
          target: 0.5,
        },
      ],
      // An absolute time, not a rate: judged here and stated in the notes.
      met: stalled < STALL_LIMIT_MS,
      notes: [
        `Probe: one till in its own process (niceness -10 when allowed), ${RATE} barcode.verify calls a second ` +
          'whatever is in flight, each a fresh card; latency from when the call was due. ' +
          `${baseline.length} calls in ${BASELINE_MS / 1000} s without idle tills, then ${loaded.length} ` +
          `in ${LOADED_MS / 1000} s with them${LOADED_MS > 30_000 ? ' (a whole 30 s heartbeat interval)' : ''}.`,
        `Longest event-loop stall with idle tills: ${stalled.toFixed(1)} ms, goal under ${STALL_LIMIT_MS} ms: ` +
          `${stalled < STALL_LIMIT_MS ? 'met' : 'MISSED'}.`,
        `Idle tills: ${idle.connected} WebSocket connections of one process answering pings, ${idle.refused} ` +
          `refused; ` +
          `${stillOpen} still open at the end. Event-loop delay: perf_hooks monitorEventLoopDelay (10 ms resolution) ` +
          'in the server.',
        `Open-file limit: ${softFdLimit() ?? 'unknown'} here; the server and the idle tills' process ask ` +
          `for ${headroom} (ulimit -n, up to the hard limit).`,
      ],
    };
    return [{ group, results }];
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}

/** Runs the group on its own: `npx tsx bench/idle-tills.bench.ts`. */
if (import.meta.url === `file://${process.argv[1]}`) {
  const { report } = await import('./harness.js');
  for (const { group, results } of await idleTillsGroups()) report(group, results);
}
