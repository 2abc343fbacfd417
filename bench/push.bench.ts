import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basicAuthHeader } from '../src/net/basic-auth.js';
import { createPushClient, readMsisdnFile, sendCampaign } from '../src/entries/push.js';
import type { BenchGroup, Measured } from './harness.js';
import { pinLoadToCore1 } from './load.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const NUMBERS = Number(process.env.BENCH_CAMPAIGN_NUMBERS ?? 100_000);
const root = join(import.meta.dirname, '..');

/** The sandbox as `wallet-partner-kit sandbox` runs it (PGlite in memory), in its own process on core 0. */
async function startSandboxProcess(): Promise<{ url: string; stop(): void }> {
  const child: ChildProcess = spawn(
    'taskset',
    ['-c', '0', process.execPath, '--import', 'tsx', join(root, 'src', 'cli', 'main.ts'), 'sandbox', '--port', '0'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: '' },
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /URL\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(text);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  return { url, stop: () => child.kill('SIGKILL') };
}

async function account(url: string, n: number): Promise<{ login: string; password: string }> {
  const login = `bench-${process.pid}-${n}`;
  const created = await fetch(`${url}/sandbox/push/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login, partner: 'demo-partner', batchIntervalMs: 0, simulateDelivery: false }),
  });
  const { password: initial } = (await created.json()) as { password: string };
  const password = 'bench-password-0123';
  await createPushClient({ url, login, password: initial }).resetPassword(password);
  return { login, password };
}

const numbers = (offset: number) =>
  Array.from({ length: NUMBERS }, (_, i) => `79${String(offset + i).padStart(9, '0')}`);

function summarize(name: string, rates: number[]): Measured {
  const mean = rates.reduce((a, b) => a + b, 0) / rates.length;
  const sd = Math.sqrt(rates.reduce((a, r) => a + (r - mean) ** 2, 0) / Math.max(1, rates.length - 1));
  return { name, hz: mean, rme: (sd / mean) * 100, samples: rates.length };
}

const CAMPAIGN = `sendCampaign: ${NUMBERS.toLocaleString('en')} numbers from a CSV file, progress + results files`;
const VOLATILE = `sendCampaign: the same from the CSV file, no progress or results file (no resume)`;
const BARE = `bare loop of POST /public/push/batch (Idempotency-Key too), bodies built beforehand`;

/**
 * Campaign throughput end to end against the local sandbox (numbers/s),
 * against a bare loop of the same batch requests built beforehand: the ratio is
 * what reading, validating, de-duplicating and the durable progress file cost.
 */
export async function pushGroups(): Promise<Array<{ group: BenchGroup; results: Map<string, Measured> }>> {
  const dir = mkdtempSync(join(tmpdir(), 'wpk-bench-push-'));
  const sandbox = await startSandboxProcess();
  const unpin = pinLoadToCore1();
  const campaign: number[] = [];
  const bare: number[] = [];
  const volatile: number[] = [];
  const message = { title: 'Bench', text: 'Throughput' };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const runCampaign = async (durable: boolean) => {
        // The file is written before the clock starts; the sender streams it.
        const slot = round * 3 + (durable ? 0 : 2);
        const file = join(dir, `numbers-${slot}.csv`);
        const out = createWriteStream(file);
        for (const n of numbers(slot * NUMBERS)) out.write(`${n}\n`);
        await new Promise<void>((resolve) => out.end(resolve));
        const client = createPushClient({ url: sandbox.url, ...(await account(sandbox.url, slot)) });
        const started = performance.now();
        const report = await sendCampaign({
          client,
          numbers: readMsisdnFile(file),
          subId: 'bench',
          message,
          ...(durable ? { progressFile: `${file}.progress.json`, resultsFile: `${file}.results.ndjson` } : {}),
        });
        if (report.accepted !== NUMBERS) throw new Error(`campaign accepted ${report.accepted} of ${NUMBERS}`);
        (durable ? campaign : volatile).push(NUMBERS / ((performance.now() - started) / 1000));
      };
      const runBare = async () => {
        // The same number of numbers, batches serialized beforehand, one POST after the other.
        const b = await account(sandbox.url, round * 3 + 1);
        const all = numbers((round * 3 + 1) * NUMBERS);
        const bodies: string[] = [];
        for (let i = 0; i < all.length; i += 10_000)
          bodies.push(JSON.stringify({ msisdn: all.slice(i, i + 10_000), subId: 'bench', message }));
        const headers = { authorization: basicAuthHeader(b.login, b.password), 'content-type': 'application/json' };
        const started = performance.now();
        for (const [i, body] of bodies.entries()) {
          // With an Idempotency-Key as the campaign sends, so the sandbox does the same work (it stores each answer).
          const response = await fetch(`${sandbox.url}/public/push/batch`, {
            method: 'POST',
            headers: { ...headers, 'idempotency-key': `bare-${round}:${i}` },
            body,
          });
          if (response.status !== 200) throw new Error(`bare batch answered ${response.status}`);
          await response.arrayBuffer();
        }
        bare.push(NUMBERS / ((performance.now() - started) / 1000));
      };
      // Alternate which goes first: the sandbox's tables grow with every run.
      if (round % 2 === 0) {
        await runCampaign(true);
        await runBare();
        await runCampaign(false);
      } else {
        await runCampaign(false);
        await runBare();
        await runCampaign(true);
      }
      process.stderr.write(`  push round ${round + 1}/${ROUNDS}\n`);
    }
  } finally {
    unpin();
    sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const results = new Map([
    [CAMPAIGN, summarize(CAMPAIGN, campaign)],
    [VOLATILE, summarize(VOLATILE, volatile)],
    [BARE, summarize(BARE, bare)],
  ]);
  const group: BenchGroup = {
    title:
      'Push campaign: numbers/s end to end against the local sandbox (sandbox on core 0 with PGlite, sender on ' +
      'core 1, batches of 10,000)',
    cases: [],
    ratios: [
      { label: 'campaign sender (resumable) vs bare batch POSTs', subject: CAMPAIGN, baseline: BARE, target: 0.8 },
      { label: 'campaign sender (no files) vs bare batch POSTs', subject: VOLATILE, baseline: BARE, target: 0.8 },
    ],
    notes: [
      'Every run waits for the sandbox to store each batch (one multi-row INSERT of 10,000 messages): the server ' +
        'sets the pace. The ratios are the share of it the sender keeps while streaming, validating and ' +
        'de-duplicating (no files), and also fsyncing a progress file and 10,000 result lines per batch ' +
        '(resumable): the difference between the two is the price of resuming without sending twice, i.e. the ' +
        "disk's fsync latency.",
    ],
  };
  return [{ group, results }];
}

// `npx tsx bench/push.bench.ts` runs this group alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { report } = await import('./harness.js');
  for (const { group, results } of await pushGroups()) report(group, results);
}
