import type { Logger } from 'pino';
import { stopTelemetry } from './telemetry.js';

/**
 * Drains on SIGTERM or SIGINT: `close()` lets calls in flight finish, then the
 * process exits 0 (1 if closing failed). A second signal exits 1 at once.
 */
export function exitOnSignals(logger: Logger, close: () => Promise<void>): void {
  let signals = 0;
  const stop = (signal: NodeJS.Signals) => {
    if (++signals > 1) process.exit(1);
    try {
      logger.info({ signal }, 'shutting down');
    } catch {
      // stdout is gone; shut down all the same
    }
    // The spans of the drain are exported before the process exits (a no-op without tracing).
    close().then(stopTelemetry).then(() => process.exit(0), (error: unknown) => {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
