import { pino, type DestinationStream, type Logger, type LevelWithSilent } from 'pino';
import { logPolicyOptions } from './policy.js';

/** Options of {@link createLogger}. */
export interface CreateLoggerOptions {
  /** Default `LOG_LEVEL` from the environment, else `info`. */
  level?: LevelWithSilent | string;
  /** Where lines go. Default standard output. */
  destination?: DestinationStream;
}

/**
 * The one way the kit's servers make their pino logger: JSON lines under the
 * logging policy (errors without parameters or bodies, secrets and data
 * fields removed; see `policy.ts`).
 *
 * @example
 * const logger = createLogger({ level: process.env.LOG_LEVEL });
 */
export function createLogger({
  level = process.env.LOG_LEVEL ?? 'info',
  destination,
}: CreateLoggerOptions = {}): Logger {
  const options = { level, ...logPolicyOptions() };
  return destination === undefined ? pino(options) : pino(options, destination);
}

/** A logger that writes nothing (the servers' default when none is given). */
export function silentLogger(): Logger {
  return createLogger({ level: 'silent' });
}
