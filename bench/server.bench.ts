import { join } from 'node:path';
import { demoConfig } from '../src/demo.js';
import { drawBarcode } from '../src/index.js';
import type { BenchGroup, Measured } from './harness.js';
import { cpuSeconds, httpLoad, LOAD_SECONDS, pinLoadToCore1, startBenchServer, wsLoad } from './load.js';

function demoBarcode(): string {
  const v = demoConfig.verifier;
  const card = '4000123412341234';
  return drawBarcode({ ...v, cardNumber: card, cardSession: 'AB12CD34' });
}

const BEFORE_HTTP = 'kit HTTP POST /v1/barcode/verify (BENCH_BEFORE_TREE)';
const BEFORE_BRIDGE = 'kit bridge barcode.verify, 32 in flight (BENCH_BEFORE_TREE)';

const auth = { authorization: `Bearer ${demoConfig.tills[0].key}` };

/** Issue 3: the kit's HTTP adapter and bridge against bare servers doing the least around the same verifier. */
export async function serverGroups(): Promise<Array<{ group: BenchGroup; results: Map<string, Measured> }>> {
  const unpin = pinLoadToCore1();
  const fullBarcode = demoBarcode();
  const body = JSON.stringify({ fullBarcode });
  const results = new Map<string, Measured>();
  /** Server CPU µs per request (or call), by case: the A/B figure that holds up on a busy machine. */
  const cpuPerRequest = new Map<string, number>();
  const run = async (script: string, measure: (port: number) => Promise<Measured>) => {
    const server = await startBenchServer(script);
    try {
      const cpuBefore = cpuSeconds(server.pid);
      const measured = await measure(server.port);
      cpuPerRequest.set(measured.name, ((cpuSeconds(server.pid) - cpuBefore) * 1e6) / (measured.hz * LOAD_SECONDS));
      results.set(measured.name, measured);
    } finally {
      server.stop();
    }
  };
  // BENCH_BEFORE_TREE=<another checkout, node_modules and build/ in place>: its kit server measured in the same
  // run, interleaved with this one, so a change's cost is a ratio (before/after) rather than two runs' figures.
  const before = process.env.BENCH_BEFORE_TREE;
  const beforeKit = before === undefined ? undefined : join(before, 'bench', 'servers', 'kit.ts');
  const call = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"barcode.verify","params":${body}}`;
  try {
    if (beforeKit) await run(beforeKit, (port) => httpLoad(BEFORE_HTTP, `http://127.0.0.1:${port}/v1/barcode/verify`, body, auth));
    await run('kit.ts', (port) => httpLoad('kit HTTP POST /v1/barcode/verify', `http://127.0.0.1:${port}/v1/barcode/verify`, body, auth));
    await run('plain-http.ts', (port) => httpLoad('node:http + same verifier', `http://127.0.0.1:${port}/`, body, {}));
    if (beforeKit) await run(beforeKit, (port) => wsLoad(BEFORE_BRIDGE, `ws://127.0.0.1:${port}/ws`, ['wallet-pos.v1'], auth, call));
    await run('kit.ts', (port) => wsLoad('kit bridge barcode.verify, 32 in flight', `ws://127.0.0.1:${port}/ws`, ['wallet-pos.v1'], auth, call));
    await run('ws-echo.ts', (port) => wsLoad('bare ws echo, 32 in flight', `ws://127.0.0.1:${port}/`, [], {}, (id) => call(id).replace('"method"', '"result":{},"method"')));
  } finally {
    unpin();
  }
  const http: BenchGroup = {
    title: 'Cash desk server over HTTP: verify requests/s (server on core 0, autocannon with 32 connections on core 1)',
    cases: [],
    ratios: [{ label: 'kit HTTP vs node:http', subject: 'kit HTTP POST /v1/barcode/verify', baseline: 'node:http + same verifier', target: 0.8 }],
  };
  const bridge: BenchGroup = {
    title: 'WebSocket bridge: verifications/s, one connection, 32 calls in flight (server on core 0, client on core 1)',
    cases: [],
    ratios: [{ label: 'kit bridge vs bare ws echo', subject: 'kit bridge barcode.verify, 32 in flight', baseline: 'bare ws echo, 32 in flight', target: 0.7 }],
    notes: ['The echo server does no verification at all: the ratio is the share of a bare socket\'s message rate the bridge keeps while verifying every call.'],
  };
  const pick = (names: string[]) => new Map(names.filter((n) => results.has(n)).map((n) => [n, results.get(n)!]));
  const cpuNote = [...cpuPerRequest].map(([name, us]) => `${name}: ${us.toFixed(1)} µs of server CPU per request`).join('; ');
  http.notes = [...(http.notes ?? []), `Server CPU (/proc utime+stime over the load): ${cpuNote}.`];
  if (beforeKit) {
    // Within noise is the aim: 0.9 flags a real loss on a shared machine without failing on its jitter.
    http.ratios.push({ label: 'kit HTTP vs before (BENCH_BEFORE_TREE)', subject: 'kit HTTP POST /v1/barcode/verify', baseline: BEFORE_HTTP, target: 0.9 });
    bridge.ratios.push({ label: 'kit bridge vs before (BENCH_BEFORE_TREE)', subject: 'kit bridge barcode.verify, 32 in flight', baseline: BEFORE_BRIDGE, target: 0.9 });
  }
  return [
    { group: http, results: pick(['kit HTTP POST /v1/barcode/verify', 'node:http + same verifier', BEFORE_HTTP]) },
    { group: bridge, results: pick(['kit bridge barcode.verify, 32 in flight', 'bare ws echo, 32 in flight', BEFORE_BRIDGE]) },
  ];
}
