import { KitError } from '../errors.js';

/** How the CLI ends on an error: the one line it prints and its exit code (2: usage, 1: runtime). */
export interface CliFailure {
  readonly line: string;
  readonly exitCode: 1 | 2;
}

const USAGE_CODES = new Set(['CONFIG_INVALID', 'ARGUMENT_INVALID']);

/**
 * One line for an error that ended a command: what went wrong and what to do,
 * never a stack trace. Usage errors (bad arguments or configuration) exit 2,
 * everything else 1.
 */
export function describeCliFailure(error: unknown): CliFailure {
  const e = error as NodeJS.ErrnoException & { address?: string; port?: number };
  if (error instanceof KitError) return { line: error.message, exitCode: USAGE_CODES.has(error.code) ? 2 : 1 };
  if (typeof e?.code === 'string' && e.code.startsWith('ERR_PARSE_ARGS')) return { line: e.message, exitCode: 2 };
  if (e?.syscall === 'listen') {
    const where = `${e.address ?? ''}${e.port === undefined ? '' : `:${e.port}`}`;
    if (e.code === 'EADDRINUSE')
      return {
        line: `port ${e.port} is already in use on ${e.address}; stop what holds it or choose another with --port`,
        exitCode: 1,
      };
    if (e.code === 'EACCES')
      return { line: `not allowed to listen on ${where}; choose a port above 1023 with --port`, exitCode: 1 };
    if (e.code === 'EADDRNOTAVAIL')
      return { line: `cannot listen on ${where}: no such local address; check --host`, exitCode: 1 };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { line: message.split('\n')[0] || 'failed', exitCode: 1 };
}
