import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { context, propagation, trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { drawBarcode } from '../../../adapters/node/primitives.js';
import { startTelemetry } from '../../../src/cli/telemetry.js';
import { silentLogger } from '../../../src/log/index.js';
import { resolveServeConfig } from '../../../src/server/config.js';
import { type RunningServer, startServer } from '../../../src/server/serve.js';
import { tracingActive } from '../../../src/telemetry/index.js';
import { BASE_CONFIG } from '../../support/fixtures.js';

const key = randomBytes(32).toString('hex');
const tillKey = `till-${randomBytes(16).toString('hex')}`;

/** A fresh barcode for the server's key (each is verified once). */
function barcode(n: number): string {
  const { key: _key, ...layout } = { ...BASE_CONFIG, key };
  return drawBarcode({ ...layout, key, cardNumber: `400012341234${String(1000 + n)}`, cardSession: `QW12ER${10 + n}` });
}

/** The SDK's CommonJS modules loaded into this process so far. */
function sdkModulesLoaded(): string[] {
  return Object.keys(createRequire(import.meta.url).cache).filter((path) => /@opentelemetry[\\/]sdk-/.test(path));
}

/** An SDK whose spans stay in memory, registered as the CLI would (context manager, W3C propagator, provider). */
async function registerInMemorySdk() {
  const [sdk, core, { AsyncLocalStorageContextManager }] = await Promise.all([
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/core'),
    import('@opentelemetry/context-async-hooks'),
  ]);
  const exporter = new sdk.InMemorySpanExporter();
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new core.W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(
    new sdk.TracerProvider({ spanProcessors: [new sdk.SimpleSpanProcessor({ exporter })] }),
  );
  return exporter;
}

async function startCashDesk(): Promise<RunningServer> {
  const config = resolveServeConfig(
    { verifier: { ...BASE_CONFIG, key }, tills: [{ id: 'till-1', key: tillKey }] },
    {},
    { port: 0 },
  );
  return startServer(config, silentLogger());
}

async function verifyOverHttp(server: RunningServer, fullBarcode: string, headers: Record<string, string> = {}) {
  const answer = await fetch(`${server.url}/v1/barcode/verify`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tillKey}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ fullBarcode }),
  });
  return answer.json() as Promise<{ resultCode: string }>;
}

async function verifyOverBridge(server: RunningServer, params: Record<string, unknown>) {
  const ws = new WebSocket(server.wsUrl, 'wallet-pos.v1', { headers: { authorization: `Bearer ${tillKey}` } });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const answer = new Promise<{ result?: { resultCode: string } }>((resolve) =>
    ws.once('message', (data) => resolve(JSON.parse(String(data)))),
  );
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'barcode.verify', params }));
  try {
    return await answer;
  } finally {
    ws.close();
  }
}

describe('tracing', () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
    trace.disable();
    context.disable();
    propagation.disable();
  });

  it('loads no SDK and records no span when no OTEL variable is set: the servers ask once, at start', async () => {
    const saved = Object.entries(process.env).filter(([name]) => name.startsWith('OTEL_'));
    for (const [name] of saved) delete process.env[name];
    try {
      expect(await startTelemetry('serve')).toBeUndefined();
    } finally {
      for (const [name, value] of saved) process.env[name] = value;
    }
    expect(tracingActive()).toBe(false);
    server = await startCashDesk();
    expect((await verifyOverHttp(server, barcode(1))).resultCode).toBe('CARDSESSION_AVAILABLE');
    expect(sdkModulesLoaded()).toEqual([]);

    // An SDK registered after the server started finds nothing to record: its verify paths hold no span work.
    const exporter = await registerInMemorySdk();
    expect(tracingActive()).toBe(true);
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    expect((await verifyOverHttp(server, barcode(2), { traceparent })).resultCode).toBe('CARDSESSION_AVAILABLE');
    expect((await verifyOverBridge(server, { fullBarcode: barcode(3) })).result?.resultCode).toBe(
      'CARDSESSION_AVAILABLE',
    );
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('records a server span per HTTP request and per bridge call when the SDK was registered first', async () => {
    const exporter = await registerInMemorySdk();
    server = await startCashDesk();
    const http = { trace: '0af7651916cd43dd8448eb211c80319c', span: 'b7ad6b7169203331' };
    await verifyOverHttp(server, barcode(4), { traceparent: `00-${http.trace}-${http.span}-01` });
    const bridge = { trace: '4bf92f3577b34da6a3ce929d0e0e4736', span: '00f067aa0ba902b7' };
    const answered = await verifyOverBridge(server, {
      fullBarcode: barcode(5),
      _meta: { traceparent: `00-${bridge.trace}-${bridge.span}-01` },
    });
    // `_meta` is the caller's trace context, not an argument: the call is answered as without it.
    expect(answered.result?.resultCode).toBe('CARDSESSION_AVAILABLE');
    const spans = exporter.getFinishedSpans().map((s) => ({
      name: s.name,
      traceId: s.spanContext().traceId,
      parent: s.parentSpanContext?.spanId,
      kind: s.kind,
    }));
    expect(spans).toContainEqual({ name: 'POST /v1/barcode/verify', traceId: http.trace, parent: http.span, kind: 1 });
    expect(spans).toContainEqual({ name: 'barcode.verify', traceId: bridge.trace, parent: bridge.span, kind: 1 });
  });
});
