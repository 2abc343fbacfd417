import type { ChildProcess } from 'node:child_process';

/**
 * How long a spawned CLI may take to print what a test waits for. Generous on purpose: a loaded
 * 2-core machine stretches module loading and PGlite start-up many times over, and a healthy child
 * prints its banner as soon as it can, so the wait itself is an event, never a timer that passes.
 */
export const CHILD_OUTPUT_TIMEOUT_MS = 180_000;

/** A test timeout that leaves room for `starts` child start-ups plus the test's own work. */
export const childTestTimeout = (starts = 1): number => starts * CHILD_OUTPUT_TIMEOUT_MS + 60_000;

/**
 * Resolves with the first match of `pattern` in the child's stdout, checked on each output event.
 * Rejects when the child exits first, or after `timeoutMs`, with what the child wrote to stdout and
 * stderr in the message. `output.text` collects both streams, as the tests assert on it.
 */
export function waitForOutput(
  child: ChildProcess,
  output: { text: string },
  pattern: RegExp,
  what = 'banner',
  timeoutMs = CHILD_OUTPUT_TIMEOUT_MS,
): Promise<RegExpExecArray> {
  let stdout = '';
  let stderr = '';
  const report = (why: string) =>
    new Error(
      `${why} (waiting for ${what}, ${pattern})\n--- child stderr ---\n${stderr}\n--- child stdout ---\n${stdout}`,
    );
  return new Promise((resolve, reject) => {
    const onStdout = (chunk: Buffer) => {
      stdout += chunk.toString();
      output.text += chunk.toString();
      const match = pattern.exec(stdout);
      if (match) finish(() => resolve(match));
    };
    const onStderr = (chunk: Buffer) => {
      stderr += chunk.toString();
      output.text += chunk.toString();
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      finish(() => reject(report(`exited early with ${code ?? signal}`)));
    const timer = setTimeout(
      () => finish(() => reject(report(`nothing matched within ${timeoutMs / 1000} s`))),
      timeoutMs,
    );
    function finish(settle: () => void): void {
      clearTimeout(timer);
      child.off('exit', onExit);
      settle();
    }
    child.stdout!.on('data', onStdout);
    child.stderr!.on('data', onStderr);
    child.on('exit', onExit);
  });
}
