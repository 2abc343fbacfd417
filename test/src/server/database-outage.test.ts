import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateWebhookSecret, signWebhook } from '../../../src/entries/webhooks.js';
import { paymentRequests, payCalls } from '../../support/cashdesk-calls.js';
import { childTestTimeout, waitForOutput } from '../../support/cli-child.js';
import { BASKET, PARTNER_ID, Till } from '../../support/pay-server.js';
import { LIVE_KEY, LIVE_TILL_KEY, liveConfig } from '../../support/live-config.js';
import { havePrivatePostgres, startPrivatePostgres, type PrivatePostgres } from '../../support/private-postgres.js';
import { RpcError } from '../../support/ws-client.js';
import { paySandboxCases, type PaySandbox } from '../pay/sandbox-harness.js';
import { testClock } from '../../support/clock.js';

const root = join(import.meta.dirname, '..', '..', '..');
const [pglite] = paySandboxCases('serve during a PostgreSQL outage');

/** What a crashing or leaking process writes: none of it may appear in the server's output. */
const CRASH = new RegExp(
  [
    'unhandledRejection',
    'uncaughtException',
    'UnhandledPromiseRejection',
    'Unhandled promise rejection',
    'triggerUncaughtException',
  ].join('|'),
  'i',
);

interface ServeChild {
  child: ChildProcess;
  url: string;
  wsUrl: string;
  output: { text: string };
}

/** A `serve` child process; resolves once it logs that it listens (rejects with its output if it exits first). */
async function serve(configPath: string): Promise<ServeChild> {
  const args = [join(root, 'dist/src/cli/main.js'), 'serve', '--config', configPath, '--port', '0'];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'info', DATABASE_URL: '', REDIS_URL: '' },
  });
  const output = { text: '' };
  const [line] = await waitForOutput(child, output, /^.*"cash desk server listening".*$/m, 'the listening line');
  const url = JSON.parse(line).url as string;
  return { child, url, wsUrl: `${url.replace(/^http/, 'ws')}/ws`, output };
}

/** Kills the child with SIGKILL; resolves once it has exited (at once when it already had). */
function killed(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

const refusal = (work: Promise<unknown>) =>
  work.then(
    () => undefined,
    (error: unknown) => error,
  );

const runs = havePrivatePostgres('the serve PostgreSQL outage test');

describe.runIf(runs)('serve on PostgreSQL when PostgreSQL stops and starts again', () => {
  const clock = testClock('wall');
  const webhookSecret = generateWebhookSecret();
  let pg: PrivatePostgres;
  let sb: PaySandbox;
  let dir: string;
  let server: ServeChild;
  const tills: Till[] = [];
  /** A till that connected while PostgreSQL was stopped. */
  let duringOutage: Till;
  const http = async (method: string, path: string, body?: unknown) => {
    const json =
      body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
    const response = await fetch(server.url + path, {
      method,
      ...json,
      headers: { authorization: `Bearer ${LIVE_TILL_KEY}`, ...json.headers },
    });
    const text = await response.text();
    const parsed = text.startsWith('{') ? JSON.parse(text) : undefined;
    return { status: response.status, headers: response.headers, text, body: parsed };
  };
  const connect = async () => {
    const till = await Till.connect(server.wsUrl, LIVE_TILL_KEY);
    tills.push(till);
    return till;
  };

  beforeAll(async () => {
    pg = await startPrivatePostgres();
    sb = await pglite!.start(clock.now);
    dir = mkdtempSync(join(tmpdir(), 'wpk-outage-'));
    const configPath = join(dir, 'config.json');
    writeFileSync(
      configPath,
      JSON.stringify({
        ...liveConfig(),
        pay: { url: sb.url, webhookSecret },
        database: { url: pg.url, schema: 'outage' },
      }),
    );
    server = await serve(configPath);
    const webhookUrl = `${server.url}/webhooks/pay`;
    await sb.sim.partner({ partnerId: PARTNER_ID, key: LIVE_KEY, webhookUrl, webhookSecret });
    await pg.stop();
    duringOutage = await connect();
  }, childTestTimeout(1));
  afterAll(async () => {
    await Promise.all(tills.map((t) => t.close()));
    if (server) await killed(server.child);
    await sb?.close();
    await pg?.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  describe('while PostgreSQL is stopped', () => {
    it('answers /healthz 503 naming the database', async () => {
      await expect.poll(async () => (await http('GET', '/healthz')).status).toBe(503);
      expect((await http('GET', '/healthz')).body).toEqual({ status: 'unavailable', failing: ['database'] });
    });

    it.each(['/livez', '/metrics', '/openapi.json'])('answers %s 200', async (path) => {
      expect((await http('GET', path)).status).toBe(200);
    });

    it('verifies a barcode over HTTP, which needs no database', async () => {
      const card = await sb.sim.issueCard();
      const reply = await http('POST', '/v1/barcode/verify', { fullBarcode: card.barcode });
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ resultCode: 'CARDSESSION_AVAILABLE' });
    });

    it('verifies a batch and signs a token over HTTP', async () => {
      const card = await sb.sim.issueCard();
      expect((await http('POST', '/v1/barcode/verify-batch', { fullBarcodes: [card.barcode] })).status).toBe(200);
      expect((await http('POST', '/v1/token', { requestData: '{"a":1}' })).status).toBe(200);
    });

    it('answers every payment route 503 DATABASE_UNAVAILABLE with Retry-After', async () => {
      const card = await sb.sim.issueCard();
      const answers = [];
      for (const { name, method, path, body } of paymentRequests('outage-http', card.barcode)) {
        const reply = await http(method, path, body);
        const retryAfter = reply.headers.get('retry-after');
        answers.push({ name, status: reply.status, code: reply.body?.status, retryAfter });
      }
      const clean = answers.map(({ name }) => ({ name, status: 503, code: 'DATABASE_UNAVAILABLE', retryAfter: '2' }));
      expect(answers).toEqual(clean);
    });

    it('answers a signed Pay webhook 204 (taken) or 503 DATABASE_UNAVAILABLE with Retry-After, never 500', async () => {
      const body = JSON.stringify({
        type: 'transaction.updated',
        timestamp: new Date().toISOString(),
        data: {
          transactionId: 'trx-outage',
          requestId: 'req-outage',
          status: 'succeeded',
          statusClass: 'successful',
          totalAmount: 100,
          refundedAmount: 0,
          updatedAt: new Date().toISOString(),
        },
      });
      const timestampSeconds = Math.floor(Date.now() / 1000);
      const signed = signWebhook(webhookSecret, { id: 'msg_outage', timestampSeconds, body });
      const headers = { ...signed, 'content-type': 'application/json' };
      const response = await fetch(`${server.url}/webhooks/pay`, { method: 'POST', headers, body });
      // Which one depends on whether the webhook's state is written before it is answered (the write-first payments
      // answer 503 so the Pay service redelivers); both tell the sender what happened.
      expect([204, 503]).toContain(response.status);
      if (response.status === 503) {
        expect(response.headers.get('retry-after')).toBe('2');
        expect(await response.json()).toMatchObject({ status: 'DATABASE_UNAVAILABLE' });
      }
    });

    it('accepts a new bridge connection and answers its barcode.verify', async () => {
      const card = await sb.sim.issueCard();
      const till = await connect();
      const verification = await till.call('barcode.verify', { fullBarcode: card.barcode });
      expect(verification).toMatchObject({ resultCode: 'CARDSESSION_AVAILABLE' });
    });

    it('answers every bridge pay.* method DATABASE_UNAVAILABLE with retryAfterMs', async () => {
      const card = await sb.sim.issueCard();
      const answers = [];
      for (const { method, params } of payCalls('outage-ws', card.barcode)) {
        const error = (await refusal(duringOutage.call(method, params))) as RpcError | undefined;
        const data = error?.data as { retryAfterMs?: number } | undefined;
        answers.push({ method, code: error?.code, retryAfterMs: data?.retryAfterMs });
      }
      const clean = answers.map(({ method }) => ({ method, code: 'DATABASE_UNAVAILABLE', retryAfterMs: 2000 }));
      expect(answers).toEqual(clean);
    });

    it('keeps running, with no unhandled rejection or uncaught exception in its output', async () => {
      // A round trip after everything above: the process still answers, so anything it died of would have shown.
      expect((await http('GET', '/livez')).status).toBe(200);
      expect(server.child.exitCode).toBeNull();
      expect(server.child.signalCode).toBeNull();
      expect(server.output.text).not.toMatch(CRASH);
    });

    it('logs the outage once each where it is seen (the pool, the bridge), not once per refused call', () => {
      const lines = server.output.text.split('\n');
      expect(lines.filter((l) => l.includes('"database unreachable')).length).toBe(1);
      expect(lines.filter((l) => l.includes('"database unavailable: bridge payment calls')).length).toBe(1);
      expect(lines.filter((l) => l.includes('"http request failed"'))).toEqual([]);
    });
  });

  describe('once PostgreSQL is back', () => {
    beforeAll(() => pg.start(), 180_000);

    it('answers /healthz 200', async () => {
      await expect.poll(async () => (await http('GET', '/healthz')).status).toBe(200);
    });

    // Needs the payments' listening connection back too: it reconnects by itself, and healthz waits for it.
    it('runs pay.start again, retried as a till does while it is told DATABASE_UNAVAILABLE', async () => {
      await expect.poll(async () => (await http('GET', '/healthz')).status).toBe(200);
      const card = await sb.sim.issueCard({ walletPayIsDefault: false });
      const till = await connect();
      const params = { fullBarcode: card.barcode, basket: BASKET, paymentId: 'after-outage' };
      const start = () => till.call('pay.start', params);
      let answer: unknown;
      for (;;) {
        try {
          answer = await start();
          break;
        } catch (error) {
          if (!(error instanceof RpcError) || error.code !== 'DATABASE_UNAVAILABLE') throw error;
          await new Promise((resolve) => setTimeout(resolve, (error.data as { retryAfterMs: number }).retryAfterMs));
        }
      }
      expect(answer).toMatchObject({ paymentId: 'after-outage', phase: 'offered' });
    });

    // The till's subscription, refused during the outage, is retried until the database answers again.
    it('tells the till that connected during the outage of the payment started after it', async () => {
      const update = await duringOutage.until((u) => u.paymentId === 'after-outage', 0, 60_000);
      expect(update).toMatchObject({ paymentId: 'after-outage' });
    });

    it('still has no unhandled rejection or uncaught exception in its output', () => {
      expect(server.child.exitCode).toBeNull();
      expect(server.output.text).not.toMatch(CRASH);
    });
  });
});
