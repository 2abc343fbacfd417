import type { DestinationStream } from 'pino';

/** pino's level numbers, as a person reads them. */
const LEVEL_NAMES: Readonly<Record<number, string>> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

// Fields every line has, shown in the line's head or not at all.
const HEAD_FIELDS = new Set(['level', 'time', 'msg', 'pid', 'hostname']);

/**
 * One JSON log line as a person reads it on a terminal: `12:00:00 INFO  listening url=http://...`, the other
 * fields as key=value (objects as JSON). A line that is not JSON is passed on as it is.
 */
export function prettyLogLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 19) : '--:--:--';
  const level = (LEVEL_NAMES[entry.level as number] ?? String(entry.level)).padEnd(5);
  const fields = Object.entries(entry)
    .filter(([key]) => !HEAD_FIELDS.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return `${[time, level, entry.msg ?? '', ...fields].join(' ')}\n`;
}

/**
 * A destination writing pino's lines in {@link prettyLogLine}'s form to `out` (default standard output),
 * synchronously, so that a banner written after a log line comes after it on the terminal.
 */
export function prettyDestination(out: { write(text: string): unknown } = process.stdout): DestinationStream {
  return {
    write(chunk: string) {
      // pino writes one line per call; a chunk holding several is split so each is formatted.
      for (const line of chunk.split('\n')) if (line !== '') out.write(prettyLogLine(line));
    },
  };
}
