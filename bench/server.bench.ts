import { demoConfig } from '../src/demo.js';
import { drawBarcode } from '../src/index.js';
import type { BenchGroup, Measured } from './harness.js';
import { httpLoad, pinLoadToCore1, startBenchServer, wsLoad } from './load.js';

function demoBarcode(): string {
  const v = demoConfig.verifier;
  const card = '4000123412341234';
  return drawBarcode({ ...v, cardNumber: card, cardSession: 'AB12CD34' });
}

const auth = { authorization: `Bearer ${demoConfig.tills[0].key}` };

/** Issue 3: the kit's HTTP adapter and bridge against bare servers doing the least around the same verifier. */
export async function serverGroups(): Promise<Array<{ group: BenchGroup; results: Map<string, Measured> }>> {
  const unpin = pinLoadToCore1();
  const fullBarcode = demoBarcode();
  const body = JSON.stringify({ fullBarcode });
  const results = new Map<string, Measured>();
  const run = async (script: string, measure: (port: number) => Promise<Measured>) => {
    const server = await startBenchServer(script);
    try {
      const measured = await measure(server.port);
      results.set(measured.name, measured);
    } finally {
      server.stop();
    }
  };
  try {
    await run('kit.ts', (port) => httpLoad('kit HTTP POST /v1/barcode/verify', `http://127.0.0.1:${port}/v1/barcode/verify`, body, auth));
    await run('plain-http.ts', (port) => httpLoad('node:http + same verifier', `http://127.0.0.1:${port}/`, body, {}));
    const call = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"barcode.verify","params":${body}}`;
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
  const pick = (names: string[]) => new Map(names.map((n) => [n, results.get(n)!]));
  return [
    { group: http, results: pick(['kit HTTP POST /v1/barcode/verify', 'node:http + same verifier']) },
    { group: bridge, results: pick(['kit bridge barcode.verify, 32 in flight', 'bare ws echo, 32 in flight']) },
  ];
}
