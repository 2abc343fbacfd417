import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/log/index.js';
import { startTestSandbox } from '../../support/sandbox.js';
import { startServer, type RunningServer } from '../../../src/server/serve.js';
import { generateWebhookSecret } from '../../../src/entries/webhooks.js';
import { BASKET, PARTNER_ID, payConfig, TILL_KEY } from '../../support/pay-server.js';
import { Simulator } from '../pay/sandbox-harness.js';
import { demoConfig } from '../../../src/demo.js';

type Line = Record<string, unknown>;

/** A pino destination that keeps every line, parsed, and wakes whoever waits for one. */
class CapturedLog extends Writable {
  readonly lines: Line[] = [];
  readonly #waiters = new Set<() => void>();

  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const text of chunk.toString('utf8').split('\n'))
      if (text.trim() !== '') this.lines.push(JSON.parse(text) as Line);
    for (const wake of this.#waiters) wake();
    done();
  }

  /** The first line that fits, once it has been written (no timeout of its own: the test's bounds it). */
  async until(fits: (line: Line) => boolean): Promise<Line> {
    for (;;) {
      const found = this.lines.find(fits);
      if (found !== undefined) return found;
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.#waiters.delete(wake);
          resolve();
        };
        this.#waiters.add(wake);
      });
    }
  }
}

describe('request ids end to end', () => {
  const cashDeskLog = new CapturedLog();
  const sandboxLog = new CapturedLog();
  let sandbox: Awaited<ReturnType<typeof startTestSandbox>>;
  let server: RunningServer;
  let sim: Simulator;

  beforeAll(async () => {
    sandbox = await startTestSandbox({
      demo: true,
      timeScale: 1000,
      logger: createLogger({ level: 'info', destination: sandboxLog }),
    });
    sim = new Simulator(sandbox.url);
    const webhookSecret = generateWebhookSecret();
    // Payments on their worker thread, as `serve` runs them: the id crosses the thread with the call.
    server = await startServer(
      payConfig(sandbox.url, { webhookSecret }),
      createLogger({ level: 'info', destination: cashDeskLog }),
    );
    await sim.partner({
      partnerId: PARTNER_ID,
      key: demoConfig.verifier.key,
      webhookUrl: `${server.url}/webhooks/pay`,
      webhookSecret,
    });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await sandbox?.close();
  });

  it(
    'follows a payment from the cash desk to the Pay API and back with its ' + "webhook, in both servers' logs",
    async () => {
      const id = 'till-7-e2e-000123';
      const card = await sim.issueCard({ walletPayIsDefault: true });
      const started = await fetch(`${server.url}/v1/payments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TILL_KEY}`, 'content-type': 'application/json', 'x-request-id': id },
        body: JSON.stringify({ fullBarcode: card.barcode, basket: BASKET, paymentId: 'rid-1' }),
      });
      expect(started.status).toBe(200);
      expect(started.headers.get('x-request-id')).toBe(id);
      const view = (await started.json()) as { transactionId: string; phase: string };
      expect(view.phase).toBe('pending');

      // The cash desk's line for the till's request, the sandbox's for the Pay API requests it made.
      expect(await cashDeskLog.until((l) => l.msg === 'payment request')).toMatchObject({
        reqId: id,
        route: '/v1/payments',
        status: 200,
      });
      expect(await sandboxLog.until((l) => l.msg === 'request' && String(l.route).includes('checkout'))).toMatchObject({
        reqId: id,
        status: 200,
      });

      // The customer confirms: the transaction's webhook carries the id of the checkout that created it.
      await sim.confirm(view.transactionId);
      const webhook = await cashDeskLog.until((l) => l.msg === 'pay webhook');
      expect(webhook).toMatchObject({ reqId: id, status: 204 });
    },
  );

  it('makes up an id for a hostile one and puts it in the refusal', async () => {
    const refused = await fetch(`${server.url}/v1/payments/nope`, {
      headers: { authorization: `Bearer ${TILL_KEY}`, 'x-request-id': 'a b"<script>' },
    });
    const made = refused.headers.get('x-request-id');
    expect(made).toMatch(/^[0-9a-f-]{36}$/);
    expect(await refused.json()).toMatchObject({ status: 'PAYMENT_NOT_FOUND', requestId: made });
    const verify = await fetch(`${server.url}/v1/barcode/verify`, {
      method: 'POST',
      headers: { 'x-request-id': 'till-7-000124' },
    });
    expect(verify.status).toBe(401);
    expect(verify.headers.get('x-request-id')).toBe('till-7-000124');
    expect(await verify.json()).toMatchObject({ status: 'UNAUTHORIZED', requestId: 'till-7-000124' });
    expect((await fetch(`${server.url}/healthz`)).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(
      (await fetch(`${sandbox.url}/nowhere`, { headers: { 'x-request-id': 'x-1' } })).headers.get('x-request-id'),
    ).toBe('x-1');
  });

  it('serves process and event-loop metrics on both servers', async () => {
    for (const url of [server.url, sandbox.url]) {
      const text = await (await fetch(`${url}/metrics`)).text();
      for (const name of [
        'process_cpu_seconds_total',
        'process_resident_memory_bytes',
        'nodejs_heap_size_used_bytes',
        'nodejs_eventloop_lag_seconds',
        'nodejs_gc_duration_seconds_bucket',
        'nodejs_active_handles',
        'wpk_http_requests_total{',
      ]) {
        expect(text, `${url} ${name}`).toContain(name);
      }
    }
  });
});
