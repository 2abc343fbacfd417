import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import autocannon from 'autocannon';
import WebSocket from 'ws';
import type { Measured } from './harness.js';

const here = import.meta.dirname;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 5);

/** A benchmark server in its own process, pinned to core 0 (the load runs on core 1). */
export async function startBenchServer(script: string): Promise<{ port: number; pid: number; stop(): void }> {
  // An absolute path: another tree's server (the A/B of server.bench.ts).
  const file = isAbsolute(script) ? script : join(here, 'servers', script);
  const child: ChildProcess = spawn('taskset', ['-c', '0', process.execPath, '--import', 'tsx', file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /READY (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { port, pid: child.pid!, stop: () => child.kill('SIGKILL') };
}

/**
 * CPU seconds a process has used (user + system, from /proc): what a server spends per request is steadier
 * on a shared machine than its throughput, which other work on its core pulls down.
 */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime (fields 14, 15), in clock ticks of 10 ms
}

/** Seconds of load per round times rounds: with a measured rate, the requests a run made. */
export const LOAD_SECONDS = SECONDS * ROUNDS;

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

/** POSTs `body` for SECONDS with 32 connections, ROUNDS times; requests/s, non-2xx counted as failure. */
export async function httpLoad(name: string, url: string, body: string, headers: Record<string, string>): Promise<Measured> {
  const rates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const result = await autocannon({ url, method: 'POST', body, headers: { 'content-type': 'application/json', ...headers }, connections: 32, duration: SECONDS });
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    rates.push(result.requests.average);
  }
  return summarize(name, rates);
}

/** One WebSocket connection keeping `inFlight` messages outstanding for SECONDS; replies/s. */
export async function wsLoad(
  name: string, url: string, protocols: string[], headers: Record<string, string>, message: (id: number) => string, inFlight = 32,
): Promise<Measured> {
  const rates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const socket = new WebSocket(url, protocols, { headers, perMessageDeflate: false });
    await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject); });
    let replies = 0;
    let next = 0;
    let running = true;
    socket.on('message', (data) => {
      const reply = JSON.parse(String(data)) as { error?: unknown };
      if (reply.error) throw new Error(`${name}: error reply ${JSON.stringify(reply.error)}`);
      replies++;
      if (running) socket.send(message(next++));
    });
    const started = performance.now();
    for (let i = 0; i < inFlight; i++) socket.send(message(next++));
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
    running = false;
    rates.push(replies / ((performance.now() - started) / 1000));
    socket.terminate();
  }
  return summarize(name, rates);
}
