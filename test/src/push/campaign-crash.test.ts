import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPushClient, readMsisdnFile, sendCampaign } from '../../../src/entries/push.js';
import { readProgress } from '../../../src/push/progress.js';
import { sandboxCases } from '../../support/sandbox.js';
import { startPushSandbox, type PushSandbox } from './sandbox.js';

/**
 * Sized by a count, in whole batches of 10,000: 50,000 by default; `WPK_CAMPAIGN_CRASH_NUMBERS=250000` runs the full
 * size.
 */
const TOTAL = Math.max(30_000, Math.round(Number(process.env.WPK_CAMPAIGN_CRASH_NUMBERS ?? 50_000) / 10_000) * 10_000);
const BATCHES = TOTAL / 10_000;
/** The sender is killed after this batch was answered and before it was recorded: mid-campaign. */
const CRASH_BATCH = Math.min(10, Math.floor(BATCHES / 2));
const PASSWORD = 'campaign-password-0123';
const dir = mkdtempSync(join(tmpdir(), 'wpk-crash-'));
const numbersFile = join(dir, 'numbers.csv');
const child = join(import.meta.dirname, 'campaign-child.ts');

async function writeNumbers(): Promise<void> {
  const out = createWriteStream(numbersFile);
  out.write('msisdn\n');
  for (let i = 0; i < TOTAL; i++) out.write(`7900${String(i).padStart(7, '0')}\n`);
  await new Promise<void>((resolve) => out.end(resolve));
}

/** Runs the campaign in a child process and SIGKILLs it once batch `crashKey` was answered but not yet recorded. */
function runAndKill(args: string[], crashKey: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, ...args, crashKey], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    let stderr = '';
    proc.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    createInterface({ input: proc.stdout }).on('line', (line) => {
      lines.push(line);
      if (line === `answered ${crashKey}`) proc.kill('SIGKILL');
    });
    proc.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(lines);
      else reject(new Error(`child ended with ${code}: ${stderr.slice(-2000)}`));
    });
  });
}

beforeAll(writeNumbers);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(sandboxCases('the campaign crash test against a sandbox'))(
  'sendCampaign after a crash, sandbox on $name',
  ({ name, start }) => {
    let sandbox: PushSandbox;
    const progressFile = join(dir, `${name}.progress.json`);
    const resultsFile = join(dir, `${name}.results.ndjson`);
    beforeAll(async () => {
      sandbox = await startPushSandbox({ start });
    });
    afterAll(() => sandbox?.close());

    it(`sends each of ${TOTAL.toLocaleString('en')} numbers exactly once when the sender is killed mid-batch and ` +
      `resumed`, async () => {
      const { login, password } = await sandbox.createAccount({ batchIntervalMs: 1, simulateDelivery: false });
      const client = createPushClient({ url: sandbox.url, login, password });
      await client.resetPassword(PASSWORD);
      const subId = 'crash-campaign-sub';
      const campaignId = 'crash-campaign';
      const crashKey = `${campaignId}:${CRASH_BATCH}`;

      const lines = await runAndKill(
        [sandbox.url, login, PASSWORD, numbersFile, progressFile, resultsFile, subId, campaignId],
        crashKey,
      );
      expect(lines).toEqual([...Array.from({ length: CRASH_BATCH }, (_, i) => `batch ${i}`), `answered ${crashKey}`]);
      // The worst moment: the service took batch 10, the progress file still says it is being sent.
      const atCrash = await readProgress(progressFile);
      expect(atCrash?.batches.map((b) => b.status)).toEqual([...Array<string>(CRASH_BATCH).fill('done'), 'sending']);
      expect(await sandbox.stats(login, subId)).toMatchObject({
        messages: (CRASH_BATCH + 1) * 10_000,
        batches: CRASH_BATCH + 1,
      });

      const resumed: number[] = [];
      const report = await sendCampaign({
        client,
        numbers: readMsisdnFile(numbersFile),
        subId,
        message: { title: 'Crash test', text: 'Each number exactly once' },
        progressFile,
        resultsFile,
        onBatch: (b) => {
          if (!b.skipped) resumed.push(b.index);
        },
      });
      expect(report).toMatchObject({
        campaignId,
        read: TOTAL,
        accepted: TOTAL,
        rejectedCount: 0,
        batches: BATCHES,
        skippedBatches: CRASH_BATCH,
      });
      expect(resumed).toEqual(Array.from({ length: BATCHES - CRASH_BATCH }, (_, i) => CRASH_BATCH + i));

      // The crash batch was answered from the service's record, not sent again: every batch and number once.
      expect(await sandbox.stats(login, subId)).toMatchObject({
        messages: TOTAL,
        distinctMsisdn: TOTAL,
        duplicateMsisdn: 0,
        batches: BATCHES,
      });
      const results = readFileSync(resultsFile, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { msisdn: string; status: string });
      expect(results).toHaveLength(TOTAL);
      expect(new Set(results.map((r) => r.msisdn)).size).toBe(TOTAL);
      expect(results.every((r) => r.status === 'ACCEPTED')).toBe(true);
      expect((await readProgress(progressFile))?.finished).toBe(true);
    }, 300_000); // sized by the count of numbers, not by time: a loaded machine stretches it several times over
  },
);
