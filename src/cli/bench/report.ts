// The bench command's report: what it prints as JSON and as text, and its progress bar.
import cliProgress from 'cli-progress';
import { cpus, loadavg } from 'node:os';
import type { BarcodeSource } from './barcodes.js';
import type { MeasureWindow, TransportResult } from './window.js';
import { bridgeUrl } from './ws-load.js';

/** What `bench --json` prints. */
export interface BenchReport {
  target: { url: string; wsUrl: string; inProcess: boolean };
  barcodes: { kind: BarcodeSource['kind']; note: string };
  settings: { seconds: number; warmupSeconds: number; connections: number; inFlight: number };
  transports: TransportResult[];
  minRate: number | null;
  /** One line per transport under --min-rate; empty when all passed. */
  failures: string[];
  passed: boolean;
  machine: { cpuModel: string; cores: number; node: string; loadAverage: number[] };
  date: string;
}

/** What was measured and how, as the report states it. */
export interface BenchRun {
  target: URL;
  inProcess: boolean;
  barcodes: BarcodeSource;
  settings: BenchReport['settings'];
  transports: TransportResult[];
  minRate: number | null;
}

/** The report of a run: its figures, the transports under --min-rate, the machine it ran on. */
export function benchReport(run: BenchRun): BenchReport {
  const { minRate, transports } = run;
  const failures =
    minRate === null
      ? []
      : transports
          .filter((t) => t.rate < minRate)
          .map(
            (t) =>
              `${name(t)} ${t.rate.toLocaleString('en-US')}/s is under --min-rate ${minRate.toLocaleString('en-US')}`,
          );
  return {
    target: { url: run.target.origin, wsUrl: bridgeUrl(run.target), inProcess: run.inProcess },
    barcodes: { kind: run.barcodes.kind, note: run.barcodes.note },
    settings: run.settings,
    transports,
    minRate,
    failures,
    passed: failures.length === 0,
    machine: {
      cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
      cores: cpus().length,
      node: process.version,
      loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
    },
    date: new Date().toISOString(),
  };
}

function name(t: TransportResult): string {
  return t.transport === 'http' ? 'HTTP' : 'bridge';
}

/** The text report: one line per transport, then what the figures mean. */
export function formatReport(r: BenchReport): string[] {
  const lines = [
    `cash desk server ` +
      `${r.target.url}${r.target.inProcess ? ' (demo, started in this process: the load shares its CPU)' : ''}`,
    `barcodes: ${r.barcodes.note}`,
    `${r.settings.seconds} s per transport after ${r.settings.warmupSeconds} s of warm-up; HTTP ` +
      `${r.settings.connections} connections, bridge ${r.settings.inFlight} calls in flight on one connection`,
    '',
  ];
  for (const t of r.transports) {
    const what = t.transport === 'http' ? 'HTTP   POST /v1/barcode/verify' : 'bridge barcode.verify         ';
    lines.push(
      `${what}  ${t.rate.toLocaleString('en-US').padStart(9)}/s   p50 ${t.latencyMs.p50.toFixed(2)} ms   p99 ` +
        `${t.latencyMs.p99.toFixed(2)} ms   ` +
        `accepted ${t.accepted}/${t.calls}   errors ${t.errors}${t.firstError ? ` (first: ${t.firstError})` : ''}`,
    );
  }
  if (r.barcodes.kind === 'valid' && r.transports.some((t) => t.calls > 0 && t.accepted < t.calls)) {
    lines.push(
      '',
      "Some drawn barcodes were refused: does the configuration match the server's (key, scheme, layout), and " +
        'do the clocks agree?',
    );
  }
  if (r.minRate !== null)
    lines.push(
      '',
      r.passed
        ? `every transport reached --min-rate ${r.minRate.toLocaleString('en-US')}/s`
        : `UNDER --min-rate: ${r.failures.join('; ')}`,
    );
  return lines;
}

/** A progress bar on stderr while a transport runs, when stderr is a terminal. */
export async function withProgress(
  label: string,
  run: (onStart: (window: MeasureWindow) => void) => Promise<TransportResult>,
): Promise<TransportResult> {
  if (process.stderr.isTTY !== true) return run(() => {});
  const bar = new cliProgress.SingleBar(
    { format: `${label} {bar} {percentage}% | {calls} answered`, hideCursor: true, stream: process.stderr },
    cliProgress.Presets.shades_classic,
  );
  let timer: NodeJS.Timeout | undefined;
  bar.start(100, 0, { calls: 0 });
  try {
    return await run((window) => {
      timer = setInterval(() => bar.update(Math.round(window.progress() * 100), { calls: window.calls }), 200);
    });
  } finally {
    clearInterval(timer);
    bar.update(100);
    bar.stop();
  }
}
