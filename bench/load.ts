import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { resolve as resolvePath } from 'node:path';
import autocannon from 'autocannon';
import WebSocket from 'ws';
import type { Measured } from './harness.js';

const here = import.meta.dirname;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 5);
/** Unmeasured load per case before the first round (see {@link warmUp}). */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);

/** A benchmark server process (see {@link startBenchServer}). */
export interface BenchServer {
  port: number;
  /** The server's CPU time so far in µs (user + system), when its script reports it (servers/common.ts `ready`). */
  cpuMicros(): Promise<number>;
  stop(): void;
}

/**
 * A benchmark server in its own process, pinned to core 0 (the load runs on core 1).
 * `script`: a file of bench/servers, or an absolute path (another tree's, for a before/after run).
 */
export async function startBenchServer(script: string): Promise<BenchServer> {
  const child: ChildProcess = spawn(
    'taskset',
    ['-c', '0', process.execPath, '--import', 'tsx', resolvePath(here, 'servers', script)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const cpuWaiters: Array<(micros: number) => void> = [];
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      const match = /READY (\d+)/.exec(text);
      if (match) resolve(Number(match[1]));
      for (const cpu of text.matchAll(/CPU (\d+)/g)) cpuWaiters.shift()?.(Number(cpu[1]));
    });
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return {
    port,
    cpuMicros: () =>
      new Promise<number>((resolve) => {
        cpuWaiters.push(resolve);
        child.kill('SIGUSR2');
      }),
    stop: () => child.kill('SIGKILL'),
  };
}

/** A load's rate, plus the server's CPU time per request when the server was given. */
export interface LoadMeasured extends Measured {
  /** Server CPU µs (user + system) per request or reply, over all rounds. */
  cpuMicrosPerRequest?: number;
}

function withCpu(measured: Measured, cpu: { micros: number; requests: number }): LoadMeasured {
  return cpu.requests > 0 && cpu.micros > 0
    ? { ...measured, cpuMicrosPerRequest: cpu.micros / cpu.requests }
    : measured;
}

/** Pins this process (the load generator) to core 1 for the throughput runs. */
export function pinLoadToCore1(): () => void {
  execFileSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
  return () => execFileSync('taskset', ['-p', '-c', '0,1', String(process.pid)], { stdio: 'ignore' });
}

function summarize(name: string, rates: number[]): Measured {
  const mean = rates.reduce((a, b) => a + b, 0) / rates.length;
  const sd = Math.sqrt(rates.reduce((a, r) => a + (r - mean) ** 2, 0) / Math.max(1, rates.length - 1));
  return { name, hz: mean, rme: (sd / mean) * 100, samples: rates.length };
}

/**
 * POSTs `body` for SECONDS with 32 connections, ROUNDS times; requests/s, non-2xx counted as failure.
 * With `server`, also its CPU time per request.
 */
export async function httpLoad(
  name: string,
  url: string,
  body: string,
  headers: Record<string, string>,
  server?: Pick<BenchServer, 'cpuMicros'>,
  rounds = ROUNDS,
  seconds = SECONDS,
): Promise<LoadMeasured> {
  const rates: number[] = [];
  const cpu = { micros: 0, requests: 0 };
  for (let round = 0; round < rounds; round++) {
    const before = await server?.cpuMicros();
    const result = await autocannon({
      url,
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', ...headers },
      connections: 32,
      duration: seconds,
    });
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    rates.push(result.requests.average);
    if (server !== undefined) {
      cpu.micros += (await server.cpuMicros()) - before!;
      cpu.requests += result.requests.total;
    }
  }
  return withCpu(summarize(name, rates), cpu);
}

/**
 * One WebSocket connection keeping `inFlight` messages outstanding for SECONDS; replies/s (with `server`, its CPU per
 * reply).
 */
export async function wsLoad(
  name: string,
  url: string,
  protocols: string[],
  headers: Record<string, string>,
  message: (id: number) => string,
  inFlight = 32,
  server?: Pick<BenchServer, 'cpuMicros'>,
  rounds = ROUNDS,
  seconds = SECONDS,
): Promise<LoadMeasured> {
  const rates: number[] = [];
  const cpu = { micros: 0, requests: 0 };
  for (let round = 0; round < rounds; round++) {
    const before = await server?.cpuMicros();
    const socket = new WebSocket(url, protocols, { headers, perMessageDeflate: false });
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    let replies = 0;
    let next = 0;
    let running = true;
    socket.on('message', (data) => {
      const reply = JSON.parse(String(data)) as { error?: unknown } | Array<{ error?: unknown }>;
      const failed = Array.isArray(reply) ? reply.find((r) => r.error)?.error : reply.error;
      if (failed) throw new Error(`${name}: error reply ${JSON.stringify(failed)}`);
      replies++;
      if (running) socket.send(message(next++));
    });
    const started = performance.now();
    for (let i = 0; i < inFlight; i++) socket.send(message(next++));
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    running = false;
    rates.push(replies / ((performance.now() - started) / 1000));
    if (server !== undefined) {
      cpu.micros += (await server.cpuMicros()) - before!;
      cpu.requests += replies;
    }
    socket.terminate();
  }
  return withCpu(summarize(name, rates), cpu);
}

/** One case of {@link interleaved}: `measure` takes one round (of `seconds`, default BENCH_LOAD_SECONDS). */
export interface InterleavedCase {
  name: string;
  measure(seconds?: number): Promise<LoadMeasured>;
}

/**
 * Loads every case once for `seconds` (BENCH_WARMUP_SECONDS, default 3), unmeasured, before its rounds.
 * A server just started runs its first seconds of load at a fraction of its pace (in its first 2 s on a
 * busy 2-core machine: 3-5x the CPU per request of its later rounds) while V8 compiles its hot paths, and a
 * larger server (the kit) has more to compile: without this, a short round measures the JIT, not the server.
 */
export async function warmUp(cases: InterleavedCase[], seconds = WARMUP_SECONDS): Promise<void> {
  if (seconds > 0) for (const c of cases) await c.measure(seconds);
}

/**
 * Runs cases in interleaved rounds (round 1 of every case in turn, then round 2, ...; BENCH_ROUNDS rounds), so
 * a machine whose load changes during the run weighs on every case alike; a ratio of cases measured one after
 * the other would otherwise compare two different machines. Rates are summarised over the rounds, CPU per
 * request is the mean of the rounds'.
 */
export async function interleaved(cases: InterleavedCase[], rounds = ROUNDS): Promise<Map<string, LoadMeasured>> {
  const parts = new Map<string, LoadMeasured[]>(cases.map((c) => [c.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const c of cases) parts.get(c.name)!.push(await c.measure());
  }
  const merged = new Map<string, LoadMeasured>();
  for (const [name, measured] of parts) {
    const summary: LoadMeasured = summarize(
      name,
      measured.map((m) => m.hz),
    );
    const cpu = measured.map((m) => m.cpuMicrosPerRequest).filter((c): c is number => c !== undefined);
    if (cpu.length === measured.length) summary.cpuMicrosPerRequest = cpu.reduce((a, b) => a + b, 0) / cpu.length;
    merged.set(name, summary);
  }
  return merged;
}
