import { demoConfig } from '../src/demo.js';
import { drawBarcode } from '../src/entries/index.js';
import type { BenchGroup, Measured, Ratio } from './harness.js';
import {
  type BenchServer,
  httpLoad,
  interleaved,
  type InterleavedCase,
  type LoadMeasured,
  pinLoadToCore1,
  startBenchServer,
  warmUp,
  wsLoad,
} from './load.js';

/** The barcode every verify load sends: the demo key's, one card. */
export function demoBarcode(): string {
  const v = demoConfig.verifier;
  const card = '4000123412341234';
  return drawBarcode({ ...v, cardNumber: card, cardSession: 'AB12CD34' });
}

/** The demo's first till's key, as every load presents it. */
export const auth = { authorization: `Bearer ${demoConfig.tills[0].key}` };

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
  const parts = names
    .filter((n) => results.get(n)?.cpuMicrosPerRequest !== undefined)
    .map((n) => `${n} ${results.get(n)!.cpuMicrosPerRequest!.toFixed(1)} µs`);
  return `Server CPU (user + system, process.cpuUsage) per request, reply or verification: ${parts.join('; ')}.`;
}

/** Issues 3 and 14: the kit's HTTP adapter and bridge against bare servers doing the least around the same verifier. */
export async function serverGroups(): Promise<Array<{ group: BenchGroup; results: Map<string, Measured> }>> {
  return (await serverGroupRepeats(1))[0]!;
}

/**
 * {@link serverGroups} measured `repeats` times (one array per repeat, for `medianRepeats`): each group's servers
 * are started and warmed up once (bench/load.ts `warmUp`, every case alike), then take `repeats` times
 * BENCH_ROUNDS interleaved rounds. Starting fresh servers per repeat made every repeat measure cold servers.
 */
export async function serverGroupRepeats(
  repeats: number,
): Promise<Array<Array<{ group: BenchGroup; results: Map<string, Measured> }>>> {
  const unpin = pinLoadToCore1();
  const fullBarcode = demoBarcode();
  const body = JSON.stringify({ fullBarcode });
  const batchBody = JSON.stringify({ fullBarcodes: Array.from({ length: BATCH }, () => fullBarcode) });
  const runs = Array.from({ length: repeats }, () => new Map<string, LoadMeasured>());
  const started: BenchServer[] = [];
  const start = async (script: string) => {
    const server = await startBenchServer(script);
    started.push(server);
    return server;
  };
  const kitBefore = BEFORE_TREE === undefined ? undefined : `${BEFORE_TREE}/bench/servers/kit.ts`;
  const call = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"barcode.verify","params":${body}}`;
  const batchFrame = (id: number) => `[${Array.from({ length: BATCH }, (_, i) => call(id * BATCH + i)).join(',')}]`;
  const verifyUrl = (port: number, path = '/v1/barcode/verify') => `http://127.0.0.1:${port}${path}`;
  const bridgeUrl = (port: number) => `ws://127.0.0.1:${port}/ws`;
  // Each group's servers run side by side, idle but for the case in its round: see `interleaved`.
  const stopAll = () => {
    for (const server of started.splice(0)) server.stop();
  };
  const measureAll = async (cases: InterleavedCase[]) => {
    await warmUp(cases);
    for (const results of runs) for (const [name, measured] of await interleaved(cases)) results.set(name, measured);
  };
  try {
    const [kit, plain, before] = [
      await start('kit.ts'),
      await start('plain-http.ts'),
      kitBefore === undefined ? undefined : await start(kitBefore),
    ];
    const http: InterleavedCase[] = [
      { name: NAMES.http, measure: (s) => httpLoad(NAMES.http, verifyUrl(kit.port), body, auth, kit, 1, s) },
      {
        name: NAMES.plain,
        measure: (s) => httpLoad(NAMES.plain, `http://127.0.0.1:${plain.port}/`, body, auth, plain, 1, s),
      },
      ...(before === undefined
        ? []
        : [
            {
              name: NAMES.httpBefore,
              measure: (s?: number) => httpLoad(NAMES.httpBefore, verifyUrl(before.port), body, auth, before, 1, s),
            },
          ]),
      {
        name: NAMES.httpBatch,
        measure: async (s) =>
          perVerification(
            await httpLoad(
              NAMES.httpBatch,
              verifyUrl(kit.port, '/v1/barcode/verify-batch'),
              batchBody,
              auth,
              kit,
              1,
              s,
            ),
            BATCH,
          ),
      },
    ];
    await measureAll(http);
    stopAll();
    const [bridgeKit, echo, bridgeBefore] = [
      await start('kit.ts'),
      await start('ws-echo.ts'),
      kitBefore === undefined ? undefined : await start(kitBefore),
    ];
    const echoCall = (id: number) => call(id).replace('"method"', '"result":{},"method"');
    const bridge: InterleavedCase[] = [
      {
        name: NAMES.bridge,
        measure: (s) =>
          wsLoad(NAMES.bridge, bridgeUrl(bridgeKit.port), ['wallet-pos.v1'], auth, call, 32, bridgeKit, 1, s),
      },
      {
        name: NAMES.echo,
        measure: (s) => wsLoad(NAMES.echo, `ws://127.0.0.1:${echo.port}/`, [], {}, echoCall, 32, echo, 1, s),
      },
      ...(bridgeBefore === undefined
        ? []
        : [
            {
              name: NAMES.bridgeBefore,
              measure: (s?: number) =>
                wsLoad(
                  NAMES.bridgeBefore,
                  bridgeUrl(bridgeBefore.port),
                  ['wallet-pos.v1'],
                  auth,
                  call,
                  32,
                  bridgeBefore,
                  1,
                  s,
                ),
            },
          ]),
      {
        name: NAMES.bridgeBatch,
        measure: async (s) =>
          perVerification(
            await wsLoad(
              NAMES.bridgeBatch,
              bridgeUrl(bridgeKit.port),
              ['wallet-pos.v1'],
              auth,
              batchFrame,
              32,
              bridgeKit,
              1,
              s,
            ),
            BATCH,
          ),
      },
    ];
    await measureAll(bridge);
  } finally {
    stopAll();
    unpin();
  }
  return runs.map((results) => describe(results, kitBefore !== undefined));
}

/** The two groups of one repeat's results. */
function describe(
  results: Map<string, LoadMeasured>,
  before: boolean,
): Array<{ group: BenchGroup; results: Map<string, Measured> }> {
  const httpRatios: Ratio[] = [
    { label: 'kit HTTP vs node:http (same auth)', subject: NAMES.http, baseline: NAMES.plain, target: 0.9 },
    ...(before
      ? [
          {
            label: 'before: kit HTTP vs node:http (same auth)',
            subject: NAMES.httpBefore,
            baseline: NAMES.plain,
            target: 0.9,
          },
        ]
      : []),
    {
      label: `kit HTTP batch of ${BATCH} vs single verify, verifications/s`,
      subject: NAMES.httpBatch,
      baseline: NAMES.http,
      target: 1.5,
    },
  ];
  const http: BenchGroup = {
    title: 'Cash desk server over HTTP: verify requests/s (server on core 0, autocannon with 32 connections on core 1)',
    cases: [],
    ratios: httpRatios,
    notes: [
      'The servers of a group run side by side on core 0 and take their rounds in turn (bench/load.ts ' +
        '`interleaved`), so a load that changes during the run weighs on every case alike.',
      cpuNote(results, [NAMES.http, NAMES.httpBefore, NAMES.plain, NAMES.httpBatch]),
    ],
  };
  const bridgeRatios: Ratio[] = [
    { label: 'kit bridge vs bare ws echo', subject: NAMES.bridge, baseline: NAMES.echo, target: 0.9 },
    ...(before
      ? [
          {
            label: 'before: kit bridge vs bare ws echo',
            subject: NAMES.bridgeBefore,
            baseline: NAMES.echo,
            target: 0.9,
          },
        ]
      : []),
    {
      label: `kit bridge batch frames of ${BATCH} vs single calls, verifications/s`,
      subject: NAMES.bridgeBatch,
      baseline: NAMES.bridge,
      target: 1.5,
    },
  ];
  const bridge: BenchGroup = {
    title: 'WebSocket bridge: verifications/s, one connection, 32 calls in flight (server on core 0, client on core 1)',
    cases: [],
    ratios: bridgeRatios,
    notes: [
      "The echo server does no verification at all: the ratio is the share of a bare socket's message rate the " +
        'bridge keeps while verifying every call.',
      cpuNote(results, [NAMES.bridge, NAMES.bridgeBefore, NAMES.echo, NAMES.bridgeBatch]),
    ],
  };
  const pick = (names: string[]) => new Map(names.filter((n) => results.has(n)).map((n) => [n, results.get(n)!]));
  return [
    { group: http, results: pick([NAMES.http, NAMES.httpBefore, NAMES.plain, NAMES.httpBatch]) },
    { group: bridge, results: pick([NAMES.bridge, NAMES.bridgeBefore, NAMES.echo, NAMES.bridgeBatch]) },
  ];
}
