import type { Logger } from 'pino';
import { createLogger } from '../../src/log/index.js';

/** A logger under the kit's policy writing to memory, and what it wrote. */
export interface CapturedLog {
  readonly logger: Logger;
  /** Every line written so far, as one text. */
  text(): string;
  /** The lines, parsed. */
  lines(): Array<Record<string, unknown>>;
}

/** A {@link CapturedLog} at `level` (default debug, so refusals logged at debug are seen too). */
export function captureLog(level = 'debug'): CapturedLog {
  const chunks: string[] = [];
  const logger = createLogger({
    level,
    destination: {
      write: (line: string) => {
        chunks.push(line);
      },
    },
  });
  return {
    logger,
    text: () => chunks.join(''),
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

/** The secrets of `secrets` that `text` contains (each also looked for as JSON would escape it). */
export function leakedSecrets(text: string, secrets: readonly string[]): string[] {
  return secrets.filter((s) => s.length > 0 && (text.includes(s) || text.includes(JSON.stringify(s).slice(1, -1))));
}
