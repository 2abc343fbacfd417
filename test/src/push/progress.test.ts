import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CampaignProgress } from '../../../src/entries/push.js';
import { openResultsFile } from '../../../src/push/results-file.js';
import { readProgress, writeProgress } from '../../../src/push/progress.js';

const dir = mkdtempSync(join(tmpdir(), 'wpk-progress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const progress = (batches = 0): CampaignProgress => ({
  version: 1,
  campaignId: 'c1',
  subId: 's',
  contentHash: 'h',
  batchSize: 10,
  createdAt: 'now',
  updatedAt: 'now',
  resultsBytes: 0,
  finished: false,
  batches: Array.from({ length: batches }, (_, index) => ({
    index,
    key: `c1:${index}`,
    count: 10,
    hash: 'x',
    status: 'done' as const,
  })),
});

describe('writeProgress and readProgress', () => {
  it('round-trips a progress file and leaves no temporary file behind', async () => {
    const path = join(dir, 'p.json');
    await writeProgress(path, progress(2));
    await writeProgress(path, progress(3));
    expect(await readProgress(path)).toEqual(progress(3));
    expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);
  });

  it('reads no file as no progress yet', async () => {
    expect(await readProgress(join(dir, 'none.json'))).toBeUndefined();
  });

  it('refuses a file that is not a progress file with PROGRESS_INVALID', async () => {
    writeFileSync(join(dir, 'bad.json'), '{"version":1');
    await expect(readProgress(join(dir, 'bad.json'))).rejects.toMatchObject({ code: 'PROGRESS_INVALID' });
    writeFileSync(join(dir, 'other.json'), '{"version":2}');
    await expect(readProgress(join(dir, 'other.json'))).rejects.toMatchObject({ code: 'PROGRESS_INVALID' });
  });
});

describe('openResultsFile', () => {
  it('appends lines and cuts what the progress file does not vouch for', async () => {
    const path = join(dir, 'r.ndjson');
    const first = await openResultsFile(path, 0);
    const size = await first.append([{ msisdn: '79990000001', batch: 0, status: 'ACCEPTED', messageId: 'pm_1' }]);
    await first.append([{ msisdn: '79990000002', batch: 1, status: 'REJECTED', reason: 'DUPLICATE' }]);
    await first.close();
    const resumed = await openResultsFile(path, size);
    await resumed.close();
    expect(readFileSync(path, 'utf8')).toBe(
      '{"msisdn":"79990000001","batch":0,"status":"ACCEPTED","messageId":"pm_1"}\n',
    );
    await expect(openResultsFile(path, size + 1)).rejects.toMatchObject({ code: 'PROGRESS_INVALID' });
  });
});
