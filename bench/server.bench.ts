import { demoConfig } from '../src/demo.js';
import { drawBarcode } from '../src/index.js';
import type { BenchGroup, Measured, Ratio } from './harness.js';
import { type BenchServer, httpLoad, type LoadMeasured, pinLoadToCore1, startBenchServer, wsLoad } from './load.js';

function demoBarcode(): string {
  const v = demoConfig.verifier;
  const card = '4000123412341234';
  return drawBarcode({ ...v, cardNumber: card, cardSession: 'AB12CD34' });
}

const auth = { authorization: `Bearer ${demoConfig.tills[0].key}` };

/** Barcodes per batch in the batch cases (a request of `POST /v1/barcode/verify-batch`, a bridge batch frame). */
const BATCH = 16;

/**
 * Another checkout of the kit (e.g. a `git worktree` of the commit before a change) whose own
 * bench/servers/kit.ts is measured in the same run as "before" cases: `WPK_BENCH_BEFORE_TREE=/path`.
 * Its bench/servers/common.ts must report CPU (this tree's does).
 */
const BEFORE_TREE = process.env.WPK_BENCH_BEFORE_TREE || undefined;

const NAMES = {
  http: 'kit HTTP POST /v1/barcode/verify',
  httpBefore: 'kit HTTP POST /v1/barcode/verify, before',
  plain: 'node:http + same auth + same verifier',
  httpBatch: `kit HTTP POST /v1/barcode/verify-batch, ${BATCH} per request (verifications/s)`,
  bridge: 'kit bridge barcode.verify, 32 in flight',
  bridgeBefore: 'kit bridge barcode.verify, 32 in flight, before',
  echo: 'bare ws echo, 32 in flight',
  bridgeBatch: `kit bridge batch frames of ${BATCH} barcode.verify, 32 in flight (verifications/s)`,
} as const;

/** A batch case's rate and CPU per verification rather than per request. */
function perVerification(measured: LoadMeasured, size: number): LoadMeasured {
  const cpu = measured.cpuMicrosPerRequest;
  return { ...measured, hz: measured.hz * size, ...(cpu === undefined ? {} : { cpuMicrosPerRequest: cpu / size }) };
}

function cpuNote(results: Map<string, LoadMeasured>, names: string[]): string {
  const parts = names.filter((n) => results.get(n)?.cpuMicrosPerRequest !== undefined)
    .map((n) => `${n} ${results.get(n)!.cpuMicrosPerRequest!.toFixed(1)} µs`);
  return `Server CPU (user + system, process.cpuUsage) per request, reply or verification: ${parts.join('; ')}.`;
}

/** Issues 3 and 14: the kit's HTTP adapter and bridge against bare servers doing the least around the same verifier. */
export async function serverGroups(): Promise<Array<{ group: BenchGroup; results: Map<string, Measured> }>> {
  const unpin = pinLoadToCore1();
  const fullBarcode = demoBarcode();
  const body = JSON.stringify({ fullBarcode });
  const batchBody = JSON.stringify({ fullBarcodes: Array.from({ length: BATCH }, () => fullBarcode) });
  const results = new Map<string, LoadMeasured>();
  const run = async (script: string, measure: (server: BenchServer) => Promise<LoadMeasured>) => {
    const server = await startBenchServer(script);
    try {
      const measured = await measure(server);
      results.set(measured.name, measured);
    } finally {
      server.stop();
    }
  };
  const kitBefore = BEFORE_TREE === undefined ? undefined : `${BEFORE_TREE}/bench/servers/kit.ts`;
  const call = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"barcode.verify","params":${body}}`;
  const batchFrame = (id: number) => `[${Array.from({ length: BATCH }, (_, i) => call(id * BATCH + i)).join(',')}]`;
  const verifyUrl = (port: number, path = '/v1/barcode/verify') => `http://127.0.0.1:${port}${path}`;
  try {
    await run('kit.ts', (s) => httpLoad(NAMES.http, verifyUrl(s.port), body, auth, s));
    await run('plain-http.ts', (s) => httpLoad(NAMES.plain, `http://127.0.0.1:${s.port}/`, body, auth, s));
    if (kitBefore !== undefined) await run(kitBefore, (s) => httpLoad(NAMES.httpBefore, verifyUrl(s.port), body, auth, s));
    await run('kit.ts', async (s) => perVerification(await httpLoad(NAMES.httpBatch, verifyUrl(s.port, '/v1/barcode/verify-batch'), batchBody, auth, s), BATCH));
    const bridgeUrl = (port: number) => `ws://127.0.0.1:${port}/ws`;
    await run('kit.ts', (s) => wsLoad(NAMES.bridge, bridgeUrl(s.port), ['wallet-pos.v1'], auth, call, 32, s));
    await run('ws-echo.ts', (s) => wsLoad(NAMES.echo, `ws://127.0.0.1:${s.port}/`, [], {}, (id) => call(id).replace('"method"', '"result":{},"method"'), 32, s));
    if (kitBefore !== undefined) await run(kitBefore, (s) => wsLoad(NAMES.bridgeBefore, bridgeUrl(s.port), ['wallet-pos.v1'], auth, call, 32, s));
    await run('kit.ts', async (s) => perVerification(await wsLoad(NAMES.bridgeBatch, bridgeUrl(s.port), ['wallet-pos.v1'], auth, batchFrame, 32, s), BATCH));
  } finally {
    unpin();
  }
  const before = kitBefore !== undefined;
  const httpRatios: Ratio[] = [
    { label: 'kit HTTP vs node:http (same auth)', subject: NAMES.http, baseline: NAMES.plain, target: 0.9 },
    ...(before ? [{ label: 'before: kit HTTP vs node:http (same auth)', subject: NAMES.httpBefore, baseline: NAMES.plain, target: 0.9 }] : []),
    { label: `kit HTTP batch of ${BATCH} vs single verify, verifications/s`, subject: NAMES.httpBatch, baseline: NAMES.http, target: 1.5 },
  ];
  const http: BenchGroup = {
    title: 'Cash desk server over HTTP: verify requests/s (server on core 0, autocannon with 32 connections on core 1)',
    cases: [],
    ratios: httpRatios,
    notes: [cpuNote(results, [NAMES.http, NAMES.httpBefore, NAMES.plain, NAMES.httpBatch])],
  };
  const bridgeRatios: Ratio[] = [
    { label: 'kit bridge vs bare ws echo', subject: NAMES.bridge, baseline: NAMES.echo, target: 0.9 },
    ...(before ? [{ label: 'before: kit bridge vs bare ws echo', subject: NAMES.bridgeBefore, baseline: NAMES.echo, target: 0.9 }] : []),
    { label: `kit bridge batch frames of ${BATCH} vs single calls, verifications/s`, subject: NAMES.bridgeBatch, baseline: NAMES.bridge, target: 1.5 },
  ];
  const bridge: BenchGroup = {
    title: 'WebSocket bridge: verifications/s, one connection, 32 calls in flight (server on core 0, client on core 1)',
    cases: [],
    ratios: bridgeRatios,
    notes: [
      'The echo server does no verification at all: the ratio is the share of a bare socket\'s message rate the bridge keeps while verifying every call.',
      cpuNote(results, [NAMES.bridge, NAMES.bridgeBefore, NAMES.echo, NAMES.bridgeBatch]),
    ],
  };
  const pick = (names: string[]) => new Map(names.filter((n) => results.has(n)).map((n) => [n, results.get(n)!]));
  return [
    { group: http, results: pick([NAMES.http, NAMES.httpBefore, NAMES.plain, NAMES.httpBatch]) },
    { group: bridge, results: pick([NAMES.bridge, NAMES.bridgeBefore, NAMES.echo, NAMES.bridgeBatch]) },
  ];
}
