import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPushClient,
  PushError,
  sendCampaign,
  type CampaignProgressEvent,
  type PushClient,
} from '../../../src/entries/push.js';
import { startFlakyProxy } from './flaky-proxy.js';
import { generatedNumbers, startPushSandbox, type PushSandbox } from './sandbox.js';

const message = { title: 'Weekend', text: 'Two for one' };
const PASSWORD = 'campaign-password-0123';
const dir = mkdtempSync(join(tmpdir(), 'wpk-campaign-'));

describe('sendCampaign against the sandbox', () => {
  let sandbox: PushSandbox;
  // The sandbox and the campaigns share a clock that a test's injected sleep moves forward, so a 304's
  // wait is observed (asked for and taken) without being timed: the machine's load cannot change the outcome.
  let skewMs = 0;
  const clock = () => Date.now() + skewMs;
  const skipAhead = async (ms: number) => {
    skewMs += ms;
  };
  beforeAll(async () => {
    sandbox = await startPushSandbox({ clock });
  }, 120_000);
  afterAll(async () => {
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function account(batchIntervalMs: number): Promise<{ login: string; client: PushClient }> {
    const { login, password } = await sandbox.createAccount({ batchIntervalMs, simulateDelivery: false });
    const client = createPushClient({ url: sandbox.url, login, password, retryBaseMs: 10, clock });
    await client.resetPassword(PASSWORD);
    return { login, client };
  }

  it('waits out each 304 for its Retry-After and sends every batch', async () => {
    // An interval no real delay between two batches reaches, so the second and third batch each meet a 304.
    const { login, client } = await account(600_000);
    const events: CampaignProgressEvent[] = [];
    const waits: number[] = [];
    const report = await sendCampaign({
      client,
      numbers: generatedNumbers(300),
      subId: 'paced',
      message,
      batchSize: 100,
      onProgress: (p) => events.push(p),
      clock,
      maxWaitMs: 3_600_000,
      sleep: (ms) => {
        waits.push(ms);
        return skipAhead(ms);
      },
    });
    expect(report).toMatchObject({ read: 300, accepted: 300, batches: 3, rejectedCount: 0 });
    expect(waits).toHaveLength(2);
    // Each wait is what the sandbox's Retry-After asked for: most of the interval, less the real time since the last
    // batch.
    for (const wait of waits) expect(wait).toBeGreaterThan(500_000);
    expect(report.waitedMs).toBe(waits[0]! + waits[1]!);
    expect(events.filter((e) => e.waiting).length).toBe(2);
    expect(events.at(-1)).toEqual({ done: 300, total: 300, accepted: 300, rejected: 0, batches: 3, waiting: false });
    expect(await sandbox.stats(login, 'paced')).toMatchObject({ messages: 300, duplicateMsisdn: 0, batches: 3 });
  });

  it('normalizes, validates and de-duplicates across batches, reporting every number', async () => {
    const { login, client } = await account(0);
    const numbers = [
      '+7 990 000-00-01',
      '79900000002',
      'garbage',
      '79900000001',
      '7 990 000 00 03',
      '',
      '79900000002',
      '79900000004',
    ];
    const resultsFile = join(dir, 'dedupe.ndjson');
    const report = await sendCampaign({
      client,
      numbers: numbers.values(),
      subId: 'dedupe',
      message,
      batchSize: 2,
      resultsFile,
    });
    expect(report).toMatchObject({ read: 8, accepted: 4, rejectedCount: 4, batches: 2 });
    expect(report.rejected).toEqual([
      { msisdn: 'garbage', reason: 'INVALID_MSISDN' },
      { msisdn: '79900000001', reason: 'DUPLICATE' },
      { msisdn: '', reason: 'INVALID_MSISDN' },
      { msisdn: '79900000002', reason: 'DUPLICATE' },
    ]);
    expect(await sandbox.stats(login, 'dedupe')).toMatchObject({ messages: 4, distinctMsisdn: 4, duplicateMsisdn: 0 });
    const lines = readFileSync(resultsFile, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(8);
    expect(
      lines
        .filter((l) => l.status === 'ACCEPTED')
        .map((l) => l.msisdn)
        .sort(),
    ).toEqual(['79900000001', '79900000002', '79900000003', '79900000004']);
  });

  it('takes an async iterable and sends nothing for a source with no valid number', async () => {
    const { login, client } = await account(0);
    async function* numbers() {
      yield 'nope';
      yield '123';
    }
    const report = await sendCampaign({ client, numbers: numbers(), subId: 'empty', message });
    expect(report).toMatchObject({ read: 2, accepted: 0, rejectedCount: 2, batches: 1 });
    expect((await sandbox.stats(login, 'empty')).messages).toBe(0);
  });

  it('sends nothing again when a finished campaign is run again with its progress file', async () => {
    const { login, client } = await account(0);
    const progressFile = join(dir, 'again.json');
    const options = {
      client,
      numbers: generatedNumbers(250, 1000),
      subId: 'again',
      message,
      batchSize: 100,
      progressFile,
    };
    const first = await sendCampaign(options);
    const second = await sendCampaign(options);
    expect(second).toMatchObject({ campaignId: first.campaignId, accepted: 250, batches: 3, skippedBatches: 3 });
    expect(await sandbox.stats(login, 'again')).toMatchObject({ messages: 250, batches: 3 });
  });

  it('refuses a progress file made for another message or other numbers', async () => {
    const { client } = await account(0);
    const progressFile = join(dir, 'mismatch.json');
    await sendCampaign({ client, numbers: generatedNumbers(10, 2000), subId: 'mismatch', message, progressFile });
    await expect(
      sendCampaign({
        client,
        numbers: generatedNumbers(10, 2000),
        subId: 'mismatch',
        message: { ...message, text: 'other' },
        progressFile,
      }),
    ).rejects.toMatchObject({ code: 'PROGRESS_MISMATCH' });
    await expect(
      sendCampaign({ client, numbers: generatedNumbers(10, 3000), subId: 'mismatch', message, progressFile }),
    ).rejects.toMatchObject({ code: 'PROGRESS_MISMATCH' });
  });

  it('re-sends a batch whose answer was lost with the same key, so its numbers get one message each', async () => {
    const { login } = await account(0);
    const proxy = await startFlakyProxy(sandbox.url, 1);
    try {
      const client = createPushClient({ url: proxy.url, login, password: PASSWORD, retries: 0 });
      // retries: 0 leaves the recovery to the campaign's own rounds.
      const report = await sendCampaign({
        client,
        numbers: generatedNumbers(30, 4000),
        subId: 'lost',
        message,
        batchSize: 10,
        sleep: async () => {},
      });
      expect(report).toMatchObject({ accepted: 30, batches: 3 });
      expect(await sandbox.stats(login, 'lost')).toMatchObject({ messages: 30, duplicateMsisdn: 0, batches: 3 });
    } finally {
      await proxy.close();
    }
  });

  it(
    'stops on a refusal with its code and the batch in the message, the ' + 'progress file keeping the batch to resume',
    async () => {
      const { login, password } = await sandbox.createAccount({ batchIntervalMs: 0, simulateDelivery: false });
      const notReset = createPushClient({ url: sandbox.url, login, password });
      const progressFile = join(dir, 'refused.json');
      const error = await sendCampaign({
        client: notReset,
        numbers: generatedNumbers(5),
        subId: 'refused',
        message,
        progressFile,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PushError);
      expect(error).toMatchObject({ code: 'UNAUTHORIZED', httpStatus: 401 });
      expect((error as Error).message).toMatch(/^batch 0: /);
    },
  );

  it('stops when aborted, while waiting out a 304', async () => {
    const { client } = await account(60_000);
    const controller = new AbortController();
    const run = sendCampaign({
      client,
      numbers: generatedNumbers(20, 5000),
      subId: 'abort',
      message,
      batchSize: 10,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.waiting) controller.abort(new Error('stopped by the test'));
      },
    });
    await expect(run).rejects.toThrow('stopped by the test');
  });

  it('refuses bad options as CONFIG_INVALID', async () => {
    const { client } = await account(0);
    await expect(sendCampaign({ client, numbers: [], subId: 's', message, batchSize: 10_001 })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
    });
    await expect(sendCampaign({ client, numbers: [], subId: '', message })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
    });
  });
});
