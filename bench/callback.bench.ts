import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { createCallbackReceiver } from '../src/entries/callback.js';
import {
  createWebhookVerifier,
  generateWebhookSecret,
  signWebhook,
  verifyWebhook,
  WebhookError,
} from '../src/entries/webhooks.js';
import { measure, type BenchGroup, type Measured } from './harness.js';
import { pinLoadToCore1 } from './load.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 5);
const CHILD = 'WPK_BENCH_CALLBACK_RECEIVER';

const sampleEvent = (id: string) =>
  JSON.stringify({
    eventId: id,
    type: 'push.delivered',
    messageId: `pm_${id.slice(4)}`,
    subId: 'promo-2026-11',
    msisdn: '79991234567',
    occurredAt: new Date().toISOString(),
  });

/** Signature verification: the kit's verifier against the standardwebhooks package, same secret, body and headers. */
export function verificationGroup(): BenchGroup {
  const secret = generateWebhookSecret();
  const body = sampleEvent('evt_0123456789abcdef01234567');
  const headers = signWebhook(secret, {
    id: 'evt_0123456789abcdef01234567',
    timestampSeconds: Math.floor(Date.now() / 1000),
    body,
  });
  const verifier = createWebhookVerifier(secret);
  const webhook = new Webhook(secret);
  const plain = { ...headers };
  return {
    title: 'Standard Webhooks verification: verifications/s of one callback (about 190 bytes)',
    cases: [
      ['kit createWebhookVerifier().verify', () => verifier.verify(plain, body)],
      ['kit verifyWebhook (decodes the secret per call)', () => verifyWebhook(secret, plain, body)],
      ['standardwebhooks Webhook.verify (jsonParse off)', () => webhook.verify(body, plain, { jsonParse: false })],
    ],
    ratios: [
      {
        label: 'kit verifier vs standardwebhooks',
        subject: 'kit createWebhookVerifier().verify',
        baseline: 'standardwebhooks Webhook.verify (jsonParse off)',
        target: 1,
      },
    ],
  };
}

/** The receiver under load, in a process of its own on core 0. */
async function startReceiverProcess(
  kind: 'pglite' | 'postgres' | 'verify-only',
  secret: string,
  schema?: string,
): Promise<{ url: string; stop(): void }> {
  const child: ChildProcess = spawn('taskset', ['-c', '0', process.execPath, '--import', 'tsx', import.meta.filename], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, [CHILD]: kind, WPK_BENCH_SECRET: secret, WPK_BENCH_SCHEMA: schema ?? '' },
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /READY (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
    child.on('exit', (code) => reject(new Error(`${kind} receiver exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}/callback`, stop: () => child.kill('SIGKILL') };
}

/** 32 connections POSTing distinct signed events for SECONDS; stored (2xx) events/s. */
async function load(url: string, secret: string, round: number, seconds = SECONDS): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  const target = new URL(url);
  const until = performance.now() + seconds * 1000;
  let ok = 0;
  let seq = 0;
  const post = () =>
    new Promise<number>((resolve, reject) => {
      const id = `evt_${process.pid}_${round}_${seq++}`;
      const body = sampleEvent(id);
      const headers = signWebhook(secret, { id, timestampSeconds: Math.floor(Date.now() / 1000), body });
      const req = request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          agent,
          headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (performance.now() < until) {
        const status = await post();
        if (status !== 200) throw new Error(`receiver answered ${status}`);
        ok++;
      }
    }),
  );
  agent.destroy();
  return ok / ((performance.now() - started) / 1000);
}

function summarize(name: string, rates: number[]): Measured {
  const mean = rates.reduce((a, b) => a + b, 0) / rates.length;
  const sd = Math.sqrt(rates.reduce((a, r) => a + (r - mean) ** 2, 0) / Math.max(1, rates.length - 1));
  return { name, hz: mean, rme: (sd / mean) * 100, samples: rates.length };
}

const NAMES = {
  pglite: 'receiver, events stored in PGlite (in process)',
  postgres: 'receiver, events stored in PostgreSQL',
  'verify-only': 'node:http verifying the signature only, storing nothing',
} as const;

/**
 * The callback receiver's stored events/s on PGlite and on PostgreSQL
 * (DATABASE_URL), next to a bare node:http server that only verifies; plus
 * signature verification against the standardwebhooks package.
 */
export async function callbackGroups(): Promise<Array<{ group: BenchGroup; results: Map<string, Measured> }>> {
  const verification = verificationGroup();
  const verified = measure(verification);
  const kinds: Array<keyof typeof NAMES> = [
    'pglite',
    ...(process.env.DATABASE_URL ? ['postgres' as const] : []),
    'verify-only',
  ];
  const results = new Map<string, Measured>();
  const unpin = pinLoadToCore1();
  try {
    for (const kind of kinds) {
      const secret = generateWebhookSecret();
      const schema = kind === 'postgres' ? `bench_callback_${process.pid}` : undefined;
      const receiver = await startReceiverProcess(kind, secret, schema);
      const rates: number[] = [];
      try {
        await load(receiver.url, secret, -1, 1); // warm-up, not counted
        for (let round = 0; round < ROUNDS; round++) rates.push(await load(receiver.url, secret, round));
      } finally {
        receiver.stop();
        if (schema !== undefined) {
          const client = new Client({ connectionString: process.env.DATABASE_URL });
          await client.connect();
          await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => client.end());
        }
      }
      results.set(NAMES[kind], summarize(NAMES[kind], rates));
      process.stderr.write(`  measured ${NAMES[kind]}\n`);
    }
  } finally {
    unpin();
  }
  const bare = results.get(NAMES['verify-only'])!.hz;
  const shares = [...results.values()]
    .filter((r) => r.name !== NAMES['verify-only'])
    .map((r) => `${r.name}: ${((r.hz / bare) * 100).toFixed(0)}% of the verify-only server's rate`)
    .join('; ');
  const storing: BenchGroup = {
    title:
      'Callback receiver: signed events/s verified, de-duplicated and stored before the 200 (receiver on core 0, ' +
      '32 connections from core 1)',
    cases: [],
    ratios: [],
    notes: [
      'Each event is a distinct webhook-id; events arriving together share one INSERT and one commit (group commit), ' +
        `each answered only once its own row is committed. ${shares}.`,
      ...(process.env.DATABASE_URL ? [] : ['DATABASE_URL was not set: PostgreSQL not measured.']),
    ],
  };
  return [
    { group: verification, results: verified },
    { group: storing, results },
  ];
}

async function child(kind: string): Promise<void> {
  const secret = process.env.WPK_BENCH_SECRET!;
  if (kind === 'verify-only') {
    const verifier = createWebhookVerifier(secret);
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        try {
          verifier.verify(req.headers as Record<string, string>, Buffer.concat(chunks));
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"OK","duplicate":false}');
        } catch (error) {
          res.writeHead(error instanceof WebhookError ? 401 : 500).end();
        }
      });
    });
    server.listen(0, '127.0.0.1', () => process.stdout.write(`READY ${(server.address() as AddressInfo).port}\n`));
    return;
  }
  const database = kind === 'postgres' ? { url: process.env.DATABASE_URL!, schema: process.env.WPK_BENCH_SCHEMA! } : {};
  const receiver = await createCallbackReceiver({ secrets: secret, database });
  const { url } = await receiver.listen();
  process.stdout.write(`READY ${new URL(url).port}\n`);
}

if (process.env[CHILD]) {
  await child(process.env[CHILD]);
} else if (import.meta.url === `file://${process.argv[1]}`) {
  // `npx tsx bench/callback.bench.ts` runs these groups alone.
  const { report } = await import('./harness.js');
  for (const { group, results } of await callbackGroups()) report(group, results);
}
