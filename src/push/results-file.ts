import { open, stat, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { PushError } from './errors.js';
import { syncFolder } from './progress.js';

/** One number's outcome, a line of a campaign's results file. */
export type NumberResult =
  | { msisdn: string; batch: number; status: 'ACCEPTED'; messageId: string }
  | { msisdn: string; batch: number; status: 'REJECTED'; reason: string };

/** An append-only NDJSON file of per-number results, cut back to what the progress file vouches for. */
export interface ResultsFile {
  /** Appends the lines and fsyncs; resolves to the file's new size, to record in the progress file. */
  append(results: readonly NumberResult[]): Promise<number>;
  close(): Promise<void>;
}

/**
 * Opens (creating) a results file and truncates it to `validBytes`: lines past
 * that belong to a batch whose completion never reached the progress file, and
 * that batch's answer is written again when it is re-sent, so none appears twice.
 *
 * @throws PushError `PROGRESS_INVALID` when the file is shorter than the progress file says.
 */
export async function openResultsFile(path: string, validBytes: number): Promise<ResultsFile> {
  const handle: FileHandle = await open(path, 'a+', 0o600);
  const { size } = await stat(path);
  if (size < validBytes) {
    await handle.close();
    throw new PushError(
      'PROGRESS_INVALID',
      `${path}: results file holds ${size} bytes, the progress file vouches for ${validBytes}`,
    );
  }
  if (size > validBytes) {
    await handle.truncate(validBytes);
    await handle.sync();
  }
  if (size === 0) await syncFolder(dirname(path));
  let length = validBytes;
  let closed = false;
  return {
    async append(results) {
      if (results.length === 0) return length;
      const text = results.map((r) => JSON.stringify(r)).join('\n') + '\n';
      const bytes = Buffer.from(text, 'utf8');
      await handle.write(bytes, 0, bytes.length, length);
      await handle.sync();
      length += bytes.length;
      return length;
    },
    async close() {
      if (closed) return;
      closed = true;
      await handle.close();
    },
  };
}
