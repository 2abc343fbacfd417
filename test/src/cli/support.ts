import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

export const root = join(import.meta.dirname, '..', '..', '..');

/** The built CLI (global setup rebuilds dist/ when the sources are newer). */
export function spawnCli(args: string[], env: Record<string, string | undefined> = {}): ChildProcess {
  const childEnv: Record<string, string | undefined> = {
    ...process.env,
    LOG_LEVEL: 'info',
    DATABASE_URL: undefined,
    ...env,
  };
  return spawn(process.execPath, [join(root, 'dist/src/cli/main.js'), ...args], {
    cwd: root,
    env: childEnv as NodeJS.ProcessEnv,
  });
}

/** Runs the CLI to its end. */
export function runCli(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnCli(args, env);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr!.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

/** Resolves with the URL of the banner's `URL` line; rejects if the process exits first. */
export function bannerUrl(child: ChildProcess): Promise<string> {
  let text = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const url = /URL\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1];
      if (url) resolve(url);
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code} before its banner:\n${text}`)));
  });
}

/** Resolves when the process has exited (and been reaped), with its code or signal. */
export function exited(child: ChildProcess): Promise<number | NodeJS.Signals | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode ?? child.signalCode);
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
}
