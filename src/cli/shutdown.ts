import type { Logger } from 'pino';
import { stopTelemetry } from './telemetry.js';

/** How often a server started by npm checks that npm still runs it. */
const PARENT_CHECK_MS = 1000;

/**
 * Calls `onGone` once the process that started this one has exited, when npm started it (`npx`, `npm exec`,
 * `npm start`: npm sets `npm_command`). npx runs the bin through a shell and forwards SIGTERM to that shell only,
 * which exits without passing it on; the server, reparented, would run on unseen. Outside npm nothing is watched:
 * a server started with `nohup ... &` from a shell that then exits must keep running.
 */
export function watchParent(onGone: () => void, env: NodeJS.ProcessEnv = process.env): void {
  if (env.npm_command === undefined) return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, PARENT_CHECK_MS);
  timer.unref();
}

/**
 * Drains on SIGTERM or SIGINT, or when npm that started it exits (see {@link watchParent}): `close()` lets calls in
 * flight finish, then the process exits 0 (1 if closing failed). A second signal exits 1 at once.
 */
export function exitOnSignals(logger: Logger, close: () => Promise<void>): void {
  let signals = 0;
  const stop = (signal: NodeJS.Signals | 'parent exited') => {
    if (++signals > 1) process.exit(1);
    try {
      logger.info({ signal }, 'shutting down');
    } catch {
      // stdout is gone; shut down all the same
    }
    // The spans of the drain are exported before the process exits (a no-op without tracing).
    close()
      .then(stopTelemetry)
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  watchParent(() => stop('parent exited'));
}
