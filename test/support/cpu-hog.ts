import { type ChildProcess, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** Busy child processes taking the machine's cores, and how to end them. */
export interface CpuHog {
  /** Ends each child this hog started, by its own process id; resolves once all are gone. */
  stop(): Promise<void>;
}

/**
 * Starts `cores` child processes (default: one per core) that spin for ever, as a saturated host's other work
 * would: what runs beside them gets its CPU time only as the scheduler shares it out.
 */
export function startCpuHog(cores = availableParallelism()): CpuHog {
  const children: ChildProcess[] = Array.from({ length: cores }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
  return {
    async stop() {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              child.once('exit', () => resolve());
              child.kill('SIGKILL');
            }),
        ),
      );
    },
  };
}
