import { type FileHandle, open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { PushError } from './errors.js';

const BatchProgress = z.object({
  index: z.number().int().min(0),
  /** The batch's `Idempotency-Key`: `<campaignId>:<index>`. */
  key: z.string(),
  /** Numbers sent in the batch, and a hash of them: a resume checks it re-reads the same batch. */
  count: z.number().int().min(0),
  hash: z.string(),
  /** `sending`: recorded before the request; `done`: its answer is recorded. */
  status: z.enum(['sending', 'done']),
  batchId: z.string().optional(),
  accepted: z.number().int().optional(),
  rejected: z.number().int().optional(),
});

const CampaignProgress = z.object({
  version: z.literal(1),
  campaignId: z.string().min(1),
  subId: z.string(),
  /** Hash of subId and message: a resume must send the same thing. */
  contentHash: z.string(),
  batchSize: z.number().int().min(1),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Bytes of the results file that done batches account for; a resume cuts anything after. */
  resultsBytes: z.number().int().min(0),
  finished: z.boolean(),
  batches: z.array(BatchProgress),
});

/** One batch as recorded in a progress file. */
export type BatchProgress = z.infer<typeof BatchProgress>;
/** A campaign's progress file. */
export type CampaignProgress = z.infer<typeof CampaignProgress>;

/**
 * Reads a progress file; `undefined` when there is none yet.
 * @throws PushError `PROGRESS_INVALID` when it exists but is not one.
 */
export async function readProgress(path: string): Promise<CampaignProgress | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new PushError(
      'PROGRESS_INVALID',
      `${path}: cannot read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      {},
      { cause: error },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new PushError('PROGRESS_INVALID', `${path}: not a campaign progress file (not JSON)`);
  }
  const parsed = CampaignProgress.safeParse(json);
  if (!parsed.success)
    throw new PushError(
      'PROGRESS_INVALID',
      `${path}: not a campaign progress file (${parsed.error.issues[0]?.path.join('.')}: ` +
        `${parsed.error.issues[0]?.message})`,
    );
  return parsed.data;
}

/**
 * Writes a progress file so that a crash at any instant leaves either the old
 * or the new content, never a mix: write a temporary file, fsync it, rename it
 * over the old one, and (unless `syncFolder` is false) fsync the folder so the
 * rename itself survives power loss. A campaign syncs the folder when it creates
 * the file; later renames may skip it, because an older progress file after a
 * power loss is safe: its batches are re-sent with the same keys and replayed.
 */
export async function writeProgress(
  path: string,
  progress: CampaignProgress,
  { syncFolder: sync = true }: { syncFolder?: boolean } = {},
): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  const file = await open(temporary, 'w', 0o600);
  try {
    await file.writeFile(JSON.stringify(progress));
    await file.sync();
  } finally {
    await file.close();
  }
  try {
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
  if (sync) await syncFolder(dirname(path));
}

/**
 * Makes a rename or a new file in `folder` durable. Some platforms cannot fsync a folder; nothing more can be done
 * there.
 */
export async function syncFolder(folder: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(folder, 'r');
    await handle.sync();
  } catch {
    // EISDIR/EPERM on platforms without directory fsync (Windows).
  } finally {
    await handle?.close();
  }
}
