import { pino, type DestinationStream, type Logger, type LevelWithSilent } from 'pino';
import { logPolicyOptions } from './policy.js';
import { prettyDestination } from './pretty.js';

/** Options of {@link createLogger}. */
export interface CreateLoggerOptions {
  /** Default `LOG_LEVEL` from the environment, else `info`. */
  level?: LevelWithSilent | string;
  /** Where lines go. Default standard output. */
  destination?: DestinationStream;
  /**
   * Readable lines instead of JSON on standard output (a destination given is always written JSON). Default: when
   * standard output is a terminal, so a person sees the lines and the banner after them, and log collectors (pipes,
   * files) get JSON.
   */
  pretty?: boolean;
}

/**
 * The one way the kit's servers make their pino logger: JSON lines (readable ones on a terminal) under the
 * logging policy (errors without parameters or bodies, secrets and data
 * fields removed; see `policy.ts`).
 *
 * @example
 * const logger = createLogger({ level: process.env.LOG_LEVEL });
 */
export function createLogger({
  level = process.env.LOG_LEVEL ?? 'info',
  destination,
  pretty = process.stdout.isTTY === true,
}: CreateLoggerOptions = {}): Logger {
  const options = { level, ...logPolicyOptions() };
  if (destination !== undefined) return pino(options, destination);
  return pretty ? pino(options, prettyDestination()) : pino(options);
}

/** A logger that writes nothing (the servers' default when none is given). */
export function silentLogger(): Logger {
  return createLogger({ level: 'silent' });
}
