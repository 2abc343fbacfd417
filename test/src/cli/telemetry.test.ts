import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { type DemoBanner, exitOf, waitForDemoBanner } from '../../support/demo-child.js';
import { OtlpCollector, type ReceivedSpan, SPAN_KIND } from '../../support/otlp-collector.js';

const root = join(import.meta.dirname, '..', '..', '..');
const cli = join(root, 'dist', 'src', 'cli', 'main.js');

/** A caller's W3C trace context: its trace and span ids, and the `traceparent` header carrying them. */
function callerTrace(trace: string, span: string) {
  return { trace, span, traceparent: `00-${trace}-${span}-01` };
}

/** Sends the banner's `pay.start` with a `_meta.traceparent` over the bridge; resolves once the payment succeeded. */
async function payOverBridge(banner: DemoBanner, traceparent: string): Promise<void> {
  const call = JSON.parse(/'(\{"jsonrpc".*\})'\s*$/.exec(banner.wsLine)![1]!) as { params: Record<string, unknown> };
  call.params._meta = { traceparent };
  const ws = new WebSocket(banner.wsUrl, 'wallet-pos.v1', { headers: { authorization: `Bearer ${banner.tillKey}` } });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let confirmed = false;
  const done = new Promise<void>((resolve, reject) => {
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as {
        error?: unknown;
        result?: { transactionId?: string };
        params?: { phase?: string };
      };
      if (frame.error !== undefined) reject(new Error(String(data)));
      const transactionId = frame.result?.transactionId;
      if (transactionId !== undefined && !confirmed) {
        confirmed = true;
        // The customer confirms in the app: the sandbox's webhook brings the result back.
        void fetch(`${banner.sandboxUrl}/sandbox/app/transactions/${transactionId}/confirm`, { method: 'POST' });
      }
      if (frame.params?.phase === 'succeeded') resolve();
    });
  });
  ws.send(JSON.stringify(call));
  try {
    await done;
  } finally {
    ws.close();
  }
}

describe('wallet-partner-kit tracing (OTEL_* variables)', () => {
  let collector: OtlpCollector;
  let child: ReturnType<typeof spawn>;
  const output = { text: '' };
  let banner: DemoBanner;

  beforeAll(async () => {
    collector = await OtlpCollector.start();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      LOG_LEVEL: 'info',
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_BSP_SCHEDULE_DELAY: '50',
    };
    delete env.DATABASE_URL;
    delete env.OTEL_SDK_DISABLED;
    child = spawn(process.execPath, [cli, 'demo', '--port', '0'], { cwd: root, env });
    banner = await waitForDemoBanner(child, output);
  }, 480_000);

  afterAll(async () => {
    child?.kill('SIGKILL');
    await collector?.close();
  });

  it("exports the verify's server span, child of the till's traceparent, over OTLP/HTTP JSON", async () => {
    const till = callerTrace('0af7651916cd43dd8448eb211c80319c', 'b7ad6b7169203331');
    const answer = await fetch(`${banner.cashDeskUrl}/v1/barcode/verify`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${banner.tillKey}`,
        'content-type': 'application/json',
        traceparent: till.traceparent,
      },
      body: JSON.stringify({ fullBarcode: banner.curlBarcode }),
    });
    expect(answer.status).toBe(200);
    const span = await collector.until((s) => s.traceId === till.trace && s.name === 'POST /v1/barcode/verify');
    expect(span).toMatchObject({
      kind: SPAN_KIND.server,
      parentSpanId: till.span,
      service: 'wallet-partner-kit-demo',
      attributes: {
        'http.request.method': 'POST',
        'http.route': '/v1/barcode/verify',
        'http.response.status_code': 200,
      },
    });
    expect(collector.contentTypes[0]).toContain('application/json');
  });

  it('follows a payment from the bridge call to the Pay API and back with its webhook', async () => {
    const till = callerTrace('4bf92f3577b34da6a3ce929d0e0e4736', '00f067aa0ba902b7');
    await payOverBridge(banner, till.traceparent);
    const inTrace = (fits: (s: ReceivedSpan) => boolean) => collector.until((s) => s.traceId === till.trace && fits(s));

    // The bridge call joins _meta.traceparent; the Pay client's span (on the payments thread) is its child.
    const call = await inTrace((s) => s.name === 'pay.start');
    expect(call).toMatchObject({
      kind: SPAN_KIND.server,
      parentSpanId: till.span,
      attributes: { 'rpc.method': 'pay.start' },
    });
    const client = await inTrace((s) => s.kind === SPAN_KIND.client && s.parentSpanId === call.spanId);
    expect(client.name).toMatch(/^POST \//);
    expect(client.attributes['wpk.pay.operation']).toBeTypeOf('string');
    // The sandbox's Pay API joins the traceparent the client sent.
    const payApi = await inTrace((s) => s.kind === SPAN_KIND.server && s.parentSpanId === client.spanId);
    expect(payApi.name).toBe(`POST ${String(client.name).slice('POST '.length)}`);
    expect(payApi.attributes['http.response.status_code']).toBe(200);

    // And back: the sandbox's webhook delivery (a trace of its own), the cash desk's webhook span under it.
    const delivery = await collector.until((s) => s.kind === SPAN_KIND.client && s.name.startsWith('webhook '));
    const received = await collector.until((s) => s.traceId === delivery.traceId && s.parentSpanId === delivery.spanId);
    expect(received).toMatchObject({ kind: SPAN_KIND.server, name: 'POST /webhooks/pay' });
    const handled = await collector.until((s) => s.parentSpanId === received.spanId && s.name === 'pay webhook');
    expect(handled).toMatchObject({ kind: SPAN_KIND.internal, traceId: delivery.traceId });
  });

  it('still stops on SIGTERM with exit 0 (the spans flushed on the way out)', async () => {
    const exited = exitOf(child);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output.text).not.toContain('OTLPExporterError');
  });
});
