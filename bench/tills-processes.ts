import { type ChildProcess, execFileSync, fork, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoConfig } from '../src/demo.js';

const root = join(import.meta.dirname, '..');

/** A child process of the benchmark, stopped with SIGTERM (so a CPU profile is written) or killed after 10 s. */
export interface BenchProcess {
  readonly pid: number;
  readonly port: number;
  stop(): Promise<void>;
}

/** Sets the niceness of processes (the probe till's, so it is not queued behind the load on its core). */
export function renice(niceness: number, ...pids: number[]): void {
  for (const pid of pids) {
    try {
      execFileSync('renice', ['-n', String(niceness), '-p', String(pid)], { stdio: 'ignore' });
    } catch {
      // Lowering a niceness needs privileges: the figures then carry that handicap (reported by the caller's note).
    }
  }
}

/** Pins a process to the given cores (`taskset` list, e.g. `1` or `0,1`). */
export function pin(cores: string, pid: number): void {
  execFileSync('taskset', ['-p', '-c', cores, String(pid)], { stdio: 'ignore' });
}

function stopper(child: ChildProcess): () => Promise<void> {
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return async () => {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
}

/**
 * Warns when a source file is newer than the build: the cash desk server runs
 * from dist/, as installed, so an unbuilt change would not be measured.
 */
export function checkBuildIsFresh(): void {
  if (process.env.BENCH_SERVE_ROOT) {
    process.stderr.write(`  cash desk server from ${process.env.BENCH_SERVE_ROOT}/dist (BENCH_SERVE_ROOT)\n`);
    return;
  }
  const built = statSync(join(root, 'dist/src/cli/main.js')).mtimeMs;
  const newer: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (path.endsWith('.ts') && statSync(join(root, path)).mtimeMs > built) newer.push(path);
    }
  };
  walk('src');
  walk('adapters/http-server');
  walk('adapters/cashdesk-http');
  walk('adapters/ws');
  if (newer.length > 0)
    process.stderr.write(
      `  WARNING: ${newer.length} source files newer than dist/ (e.g. ${newer[0]}): run npm run build:ts\n`,
    );
}

/**
 * The cash desk server as it runs in production: `wallet-partner-kit serve
 * --config FILE` from dist/, in its own process pinned to `cores`, logging at
 * the default level to a file, payments in PGlite in memory (the default),
 * Pay API at `payUrl` with the demo webhook secret. Tills `bench-till-<n>`
 * with keys `bench-till-key-<n>-not-secret`. `BENCH_SERVER_NODE_OPTIONS`
 * (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) is passed to its node;
 * `BENCH_SERVE_ROOT` runs another build of the kit (a checkout of an older
 * commit with its own dist/), for before/after figures with the same benchmark.
 */
export async function startServe(
  payUrl: string,
  tills: number,
  cores: string,
): Promise<BenchProcess & { dir: string }> {
  return await startServeConfig(
    {
      verifier: demoConfig.verifier,
      tills: Array.from({ length: tills }, (_, n) => ({
        id: `bench-till-${n}`,
        key: `bench-till-key-${n}-not-secret`,
      })),
      // The sandbox shares its core with the 200 tills (and, on this machine, other people's work): a queue of 200
      // availability tasks there can take longer than the default 10 s per call, which would fail payments for
      // the emulator's sake. The wallet service's own latency is not what this benchmark measures.
      pay: {
        url: payUrl,
        webhookSecret: demoConfig.pay.webhookSecret,
        timeoutMs: 60_000,
        ...(process.env.BENCH_PAY_THREAD_NICENESS
          ? { threadNiceness: Number(process.env.BENCH_PAY_THREAD_NICENESS) }
          : {}),
        ...(process.env.BENCH_PAY_THREAD ? { thread: process.env.BENCH_PAY_THREAD } : {}),
      },
      server: { port: 0 },
    },
    cores,
  );
}

/** Extras of {@link startServeConfig}. */
export interface ServeProcessOptions {
  /** Node options before the script (after `BENCH_SERVER_NODE_OPTIONS`), e.g. `--import` of a monitor. */
  nodeOptions?: string[];
  /** Environment added to the server's. */
  env?: Record<string, string>;
  /** Open files the server needs: its soft limit is raised to this (up to the hard limit) before node starts. */
  nofile?: number;
}

/**
 * `wallet-partner-kit serve --config FILE` from dist/ with `config` (written to FILE), as {@link startServe}
 * describes, pinned to `cores`.
 */
export async function startServeConfig(
  config: Record<string, unknown>,
  cores: string,
  options: ServeProcessOptions = {},
): Promise<BenchProcess & { dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'wpk-tills-'));
  // BENCH_SERVE_DATA=1: payments in a PGlite folder (each phase written before it is told) instead of in memory;
  // BENCH_SERVE_DATABASE_URL: on that PostgreSQL, in a schema of this run's own (as instances share payments there).
  const pgUrl = process.env.BENCH_SERVE_DATABASE_URL;
  const withData =
    config.pay === undefined
      ? {}
      : pgUrl
        ? { database: { url: pgUrl, schema: `bench_${process.pid}_${Date.now()}` } }
        : process.env.BENCH_SERVE_DATA
          ? { database: { dataDir: join(dir, 'data') } }
          : {};
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ ...config, ...withData }));
  const logPath = join(dir, 'serve.log');
  const log = openSync(logPath, 'w');
  const fromEnv = (process.env.BENCH_SERVER_NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean);
  const nodeOptions = [...fromEnv, ...(options.nodeOptions ?? [])];
  const main = join(process.env.BENCH_SERVE_ROOT ?? root, 'dist/src/cli/main.js');
  const configPath = join(dir, 'config.json');
  const argv = ['taskset', '-c', cores, process.execPath, ...nodeOptions, main, 'serve', '--config', configPath];
  // `ulimit -n` in a shell that then execs the server: the same process (pid), with the open-file limit raised
  // as far as the hard limit allows.
  const [command, ...args] =
    options.nofile === undefined
      ? argv
      : ['sh', '-c', `ulimit -n ${options.nofile} 2>/dev/null || ulimit -n "$(ulimit -Hn)"; exec "$@"`, 'sh', ...argv];
  const child = spawn(command!, args, {
    stdio: ['ignore', log, log],
    env: { ...withoutWpk(process.env), ...options.env },
    cwd: dir,
  });
  closeSync(log);
  const stop = stopper(child);
  const port = await new Promise<number>((resolve, reject) => {
    const started = Date.now();
    const look = setInterval(() => {
      const text = readFileSync(logPath, 'utf8');
      const match = /"url":"http:\/\/[^"]*:(\d+)"/.exec(text);
      if (match) {
        clearInterval(look);
        resolve(Number(match[1]));
      } else if (child.exitCode !== null || Date.now() - started > 180_000) {
        clearInterval(look);
        reject(new Error(`serve did not start: ${text.slice(-2000)}`));
      }
    }, 50);
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return {
    pid: child.pid!,
    port,
    dir,
    async stop() {
      await stop();
      if (!process.env.BENCH_KEEP_SERVER_DIR) rmSync(dir, { recursive: true, force: true });
      else process.stderr.write(`  server files kept in ${dir}\n`);
    },
  };
}

/** The environment without WPK_* variables: the server's configuration is the file alone. */
function withoutWpk(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(env).filter(([name]) => !name.startsWith('WPK_') && name !== 'DATABASE_URL' && name !== 'REDIS_URL'),
  );
}

/** A benchmark server script of bench/servers (the sandbox) in its own process pinned to `cores`. */
export async function startScript(
  script: string,
  cores: string,
  env: Record<string, string> = {},
): Promise<BenchProcess> {
  const child = spawn(
    'taskset',
    ['-c', cores, process.execPath, '--import', 'tsx', join(root, 'bench/servers', script)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...env },
    },
  );
  const stop = stopper(child);
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /READY (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { pid: child.pid!, port, stop };
}

/**
 * The probe till (bench/probe-till.ts), a process of its own: `measure(ms)` or `measureUntil(stop)` resolve with
 * latencies in ms.
 */
export interface ProbeTill {
  readonly pid: number;
  /**
   * Starts sequential barcode.verify calls, or `perSecond` of them a second whatever is in flight (latency from
   * when each was due); the returned function stops them and resolves with each call's latency.
   */
  start(perSecond?: number): () => Promise<number[]>;
  stop(): Promise<void>;
}

/** Forks the probe till, connected as till `key`, pinned to `cores`. */
export async function startProbe(wsUrl: string, key: string, cores: string): Promise<ProbeTill> {
  const child = fork(join(root, 'bench/probe-till.ts'), [wsUrl, key], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  pin(cores, child.pid!);
  const stop = stopper(child);
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`probe till exited with ${code}`)));
  });
  return {
    pid: child.pid!,
    start(perSecond?: number) {
      child.send(perSecond === undefined ? 'start' : { paced: perSecond });
      return () =>
        new Promise<number[]>((resolve, reject) => {
          child.once('message', (message: { latencies?: number[]; error?: string }) => {
            if (message.error) reject(new Error(message.error));
            else resolve(message.latencies!);
          });
          child.send('stop');
        });
    },
    stop,
  };
}
