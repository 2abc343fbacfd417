import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { exitOf } from './demo-child.js';

/** The kit's folder: where examples/till-*\/run are. */
const root = join(import.meta.dirname, '..', '..');

/** Where a reference till pays: the cash desk, its till key, and the sandbox that plays the customer. */
export interface Target {
  cashDeskUrl: string;
  tillKey: string;
  sandboxUrl: string;
}

/** JVM settings for a compile or a run that lasts seconds (JAVA_TOOL_OPTIONS: javac and java both read it). */
export const JVM_ONE_SHOT = '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';

/** What a till's run left: its exit code and output. */
export interface TillRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** True when `command args` exits 0 for one of the commands; otherwise prints one line naming what is skipped. */
export function have(commands: string[], args: string[], skipped: string): boolean {
  if (commands.some((command) => spawnSync(command, args, { stdio: 'ignore' }).status === 0)) return true;
  console.warn(skipped);
  return false;
}

/** Runs `examples/<folder>/run` against the target, as a till vendor would, and waits for it to exit. */
export async function runTill(folder: string, target: Target): Promise<TillRun> {
  const child = spawn(join(root, 'examples', folder, 'run'), [], {
    cwd: root,
    env: {
      ...process.env,
      // The Java till's javac and JVM: C1 only and one collector thread. A one-shot compile and a short run gain
      // nothing from C2, which took half of javac's CPU on the 2-core machine; the till's behaviour is the same.
      JAVA_TOOL_OPTIONS: JVM_ONE_SHOT,
      WPK_CASHDESK_URL: target.cashDeskUrl,
      WPK_TILL_KEY: target.tillKey,
      WPK_SANDBOX_URL: target.sandboxUrl,
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return { code: await exitOf(child), stdout, stderr };
}
