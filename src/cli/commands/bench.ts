import { parseCliArgs } from '../args.js';
import { demoConfig } from '../../demo.js';
import { ConfigError } from '../../errors.js';
import { resolveServeConfig } from '../../server/config.js';
import { readConfigFile } from '../config-file.js';
import { barcodeSource } from '../bench/barcodes.js';
import { httpLoad } from '../bench/http-load.js';
import { type BenchReport, benchReport, formatReport, withProgress } from '../bench/report.js';
import type { TransportResult } from '../bench/window.js';
import { bridgeLoad } from '../bench/ws-load.js';

export type { BenchReport };

/** `bench --help`, also part of the CLI's help. */
export const BENCH_USAGE = `wallet-partner-kit bench [--url URL --till-key KEY] [--config FILE | --demo] [--seconds S]
                         [--connections C] [--in-flight N] [--transport http|bridge|both] [--min-rate N] [--json]

Measures a running cash desk server: verifications per second and latency (p50, p99) over HTTP
(POST /v1/barcode/verify, C keep-alive connections) and over the bridge (WebSocket /ws, subprotocol
wallet-pos.v1, JSON-RPC barcode.verify, N calls in flight on one connection). For a CI job against a
deployment: exits 1 with one line when a transport's rate is under --min-rate.
  --url URL          the server (default: a demo cash desk server started in this process on a free
                     loopback port, measured by this same process: figures for comparison only)
  --till-key KEY     a till's key (or WPK_TILL_KEY, which stays out of the process list)
  --config FILE      the server's configuration (JSON, as for serve): barcodes are drawn with its
                     partner key, so each verifies (once). Without it (and without --demo) the load sends
                     well-formed barcodes of the demo layout with a random key: each costs a full
                     verification and is refused (CODE_MISMATCH); a layout other than the demo one is
                     refused earlier, so measure such a server with --config.
  --demo             the server runs the demo configuration (serve --demo): its key and its till key
  --seconds S        measured seconds per transport, after a warm-up of a fifth of it (default 5)
  --connections C    HTTP connections (default 16)
  --in-flight N      bridge calls in flight (default 32)
  --transport T      http, bridge or both (default both)
  --min-rate N       verifications per second each transport must reach (default none)
  --json             print the results as JSON (the progress bar, on a terminal, goes to stderr)
Each run draws barcodes for cards of its own (random 16-digit numbers starting with 9): on a real
deployment they leave replay marks, and without --config failure counts, that expire as configured.`;

function positive(name: string, value: string | undefined, fallback: number, integer: boolean): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) {
    throw new ConfigError([`--${name}: must be a positive ${integer ? 'integer' : 'number'}`], 'arguments');
  }
  return n;
}

/** The command's options, as `parseCliArgs` reads them. */
const BENCH_OPTIONS = {
  url: { type: 'string' },
  'till-key': { type: 'string' },
  config: { type: 'string' },
  demo: { type: 'boolean' },
  seconds: { type: 'string' },
  connections: { type: 'string' },
  'in-flight': { type: 'string' },
  transport: { type: 'string' },
  'min-rate': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

type BenchValues = ReturnType<
  typeof parseCliArgs<{ args: string[]; strict: true; options: typeof BENCH_OPTIONS }>
>['values'];

/** Runs `bench`: measures a cash desk server, prints the figures, sets exit code 1 under --min-rate. */
export async function bench(argv: string[]): Promise<void> {
  const { values } = parseCliArgs({ args: argv, strict: true, options: BENCH_OPTIONS });
  if (values.help) {
    console.log(BENCH_USAGE);
    return;
  }
  const settings = benchSettings(values);
  const { config, barcodes, tillKey } = benchSubject(values, settings.baseUrl === undefined);
  // In process: the verifier and tills alone (no payments, Redis, bonus hook or database), on a free loopback port.
  // Imported only here: measuring a server elsewhere loads none of the server's code.
  const server =
    settings.baseUrl === undefined
      ? await (await import('../../server/serve.js')).startServer({
          ...config,
          pay: undefined,
          redisUrl: undefined,
          bonus: undefined,
          database: {},
          server: { ...config.server, host: '127.0.0.1', port: 0, drainSeconds: 1 },
        })
      : undefined;
  const target = settings.baseUrl ?? new URL(server!.url);
  const { seconds, connections, inFlight, minRate } = settings;
  const warmupMs = seconds * 200;
  const durationMs = seconds * 1000;
  const transports: TransportResult[] = [];
  try {
    if (settings.transport !== 'bridge') {
      transports.push(
        await withProgress('HTTP  ', (onStart) =>
          httpLoad({ baseUrl: target, tillKey, barcodes, connections, warmupMs, durationMs, onStart }),
        ),
      );
    }
    if (settings.transport !== 'http') {
      transports.push(
        await withProgress('bridge', (onStart) =>
          bridgeLoad({ baseUrl: target, tillKey, barcodes, inFlight, warmupMs, durationMs, onStart }),
        ),
      );
    }
  } finally {
    await server?.close();
  }
  const report = benchReport({
    target,
    inProcess: server !== undefined,
    barcodes,
    settings: { seconds, warmupSeconds: warmupMs / 1000, connections, inFlight },
    transports,
    minRate,
  });
  if (values.json) console.log(JSON.stringify(report, null, 2));
  else for (const line of formatReport(report)) console.log(line);
  if (report.failures.length > 0) {
    console.error(`wallet-partner-kit: bench: ${report.failures.join('; ')}`);
    process.exitCode = 1;
  }
}

/** The load's settings from the arguments, checked; `baseUrl` undefined: measure a demo server in this process. */
function benchSettings(values: BenchValues) {
  const seconds = positive('seconds', values.seconds, 5, false);
  const connections = positive('connections', values.connections, 16, true);
  const inFlight = positive('in-flight', values['in-flight'], 32, true);
  const minRate = values['min-rate'] === undefined ? null : positive('min-rate', values['min-rate'], 0, false);
  const transport = values.transport ?? 'both';
  if (!['http', 'bridge', 'both'].includes(transport))
    throw new ConfigError(['--transport: must be http, bridge or both'], 'arguments');
  if (values.config !== undefined && values.demo) throw new ConfigError(['--config and --demo: give one'], 'arguments');
  let baseUrl: URL | undefined;
  if (values.url !== undefined) {
    try {
      baseUrl = new URL(values.url);
    } catch {
      throw new ConfigError(['--url: must be a URL such as http://cashdesk:8080'], 'arguments');
    }
    if (baseUrl.protocol !== 'http:' && baseUrl.protocol !== 'https:')
      throw new ConfigError(['--url: must be an http(s) URL'], 'arguments');
  }
  return { seconds, connections, inFlight, minRate, transport, baseUrl };
}

/** What is measured: the server's configuration (the in-process one's), the barcodes drawn for it, the till key. */
function benchSubject(values: BenchValues, inProcess: boolean) {
  // The verifier section decides the barcodes: the given configuration's, else the demo's.
  // A configuration file is read as serve reads it (WPK_* variables apply); the demo one as it stands.
  const fromFile = values.config !== undefined;
  const config = resolveServeConfig(
    fromFile ? readConfigFile(values.config!) : demoConfig,
    fromFile ? process.env : {},
    { port: 0, host: '127.0.0.1' },
  );
  const valid = inProcess || values.config !== undefined || values.demo === true;
  const note =
    values.config !== undefined
      ? `valid: drawn with the partner key of ${values.config}`
      : valid
        ? 'valid: drawn with the demo partner key'
        : 'invalid: the demo layout with a random key (no --config given), each refused after a full verification';
  const barcodes = barcodeSource(config.verifier, valid, note);
  const tillKey =
    values['till-key'] ?? process.env.WPK_TILL_KEY ?? (inProcess || values.demo ? config.tills[0]!.key : undefined);
  if (tillKey === undefined)
    throw new ConfigError(
      ['--till-key: required with --url (or WPK_TILL_KEY); the server refuses calls without a till key'],
      'arguments',
    );
  return { config, barcodes, tillKey };
}
