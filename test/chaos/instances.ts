import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { waitForOutput } from '../support/cli-child.js';

const root = join(import.meta.dirname, '..', '..');
const markUnhandled = pathToFileURL(join(import.meta.dirname, 'mark-unhandled.mjs')).href;

/** What an instance's output must never show: an unhandled rejection, or its payments thread gone. */
const DEATH_SIGNS = /(?:CHAOS-UNHANDLED-REJECTION|UnhandledPromiseRejection|payments thread (?:failed|exited))[^\n]*/g;

/** Output kept per instance: the tail, enough to read what went wrong without holding a whole run's logs. */
const KEPT_CHARS = 400_000;

/**
 * One `serve` child process on a configuration file. Killed with -9 it dies as a crashed host would (nothing
 * drained, no lock released by the process itself); restarted on the same port, the sandbox's webhook URL and the
 * tills' addresses stay right.
 */
export class ServeInstance {
  /** Exits nobody asked for (code or signal), with the output's tail at the time. */
  readonly unexpectedExits: string[] = [];
  /** Lines matching {@link DEATH_SIGNS}, over every process this instance has been. */
  readonly deathSigns: string[] = [];
  /** Processes started, the first included. */
  starts = 0;
  /** Processes this test ended itself. */
  readonly #expected = new WeakSet<ChildProcess>();
  #child?: ChildProcess;
  #tail = '';
  #port = 0;
  #url = '';

  constructor(
    readonly name: string,
    readonly configPath: string,
  ) {}

  get url(): string {
    return this.#url;
  }
  get wsUrl(): string {
    return `${this.#url.replace(/^http/, 'ws')}/ws`;
  }
  get alive(): boolean {
    const child = this.#child;
    return child !== undefined && child.exitCode === null && child.signalCode === null;
  }
  /** The last part of what its processes wrote (stdout and stderr). */
  get output(): string {
    return this.#tail;
  }

  /** Starts the process (on the port it had, after the first start) and resolves once it listens. */
  async start(): Promise<void> {
    const child = spawn(
      process.execPath,
      [
        '--import',
        markUnhandled,
        join(root, 'dist/src/cli/main.js'),
        'serve',
        '--config',
        this.configPath,
        '--port',
        String(this.#port),
      ],
      { cwd: root, env: { ...process.env, LOG_LEVEL: 'info', DATABASE_URL: '' } },
    );
    this.#child = child;
    this.starts++;
    let carry = '';
    const keep = (chunk: Buffer) => {
      const text = chunk.toString();
      this.#tail = (this.#tail + text).slice(-KEPT_CHARS);
      // A sign split across two chunks is still seen: the previous chunk's last line is read again with this one.
      const window = carry + text;
      for (const [sign] of window.matchAll(DEATH_SIGNS)) {
        if (!this.deathSigns.includes(sign)) this.deathSigns.push(sign);
      }
      carry = window.slice(window.lastIndexOf('\n') + 1).slice(-2_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('exit', (code, signal) => {
      if (!this.#expected.has(child)) {
        const last = this.#tail.slice(-1_500);
        this.unexpectedExits.push(`${this.name} exited with ${code ?? signal}; its last output:\n${last}`);
      }
    });
    const listening = /^.*"cash desk server listening".*$/m;
    const [line] = await waitForOutput(child, { text: '' }, listening, `${this.name} listening`);
    this.#url = JSON.parse(line).url as string;
    this.#port = Number(new URL(this.#url).port);
  }

  /** kill -9; resolves once the process is gone. */
  kill9(): Promise<void> {
    return this.#end('SIGKILL');
  }

  /** SIGTERM (a drain), then SIGKILL should it not end; resolves once the process is gone. */
  async stop(): Promise<void> {
    const child = this.#child;
    if (child === undefined || !this.alive) return;
    const late = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await this.#end('SIGTERM');
    clearTimeout(late);
  }

  /** `GET /healthz`: the status, or 0 when nothing answers. */
  async health(): Promise<number> {
    try {
      const res = await fetch(`${this.#url}/healthz`, { signal: AbortSignal.timeout(10_000) });
      await res.arrayBuffer();
      return res.status;
    } catch {
      return 0;
    }
  }

  #end(signal: NodeJS.Signals): Promise<void> {
    const child = this.#child;
    if (child === undefined) return Promise.resolve();
    this.#expected.add(child);
    // A process killed by a signal keeps exitCode null for good: signalCode tells it is gone.
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }
}
