import type { LevelWithSilent, Logger } from 'pino';

/** A line the thread logged, written again by the server's logger at its level. */
export function relog(logger: Logger, line: string): void {
  try {
    const {
      level,
      time: _time,
      pid: _pid,
      hostname: _hostname,
      msg,
      ...fields
    } = JSON.parse(line) as Record<string, unknown>;
    const label = logger.levels.labels[Number(level)] as LevelWithSilent | undefined;
    if (label !== undefined && label !== 'silent') logger[label](fields, typeof msg === 'string' ? msg : undefined);
  } catch {
    // not a line pino wrote
  }
}
