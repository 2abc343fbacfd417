import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BenchReport } from '../../../src/cli/commands/bench.js';
import { demoConfig } from '../../../src/demo.js';
import { resolveServeConfig } from '../../../src/server/config.js';
import { type RunningServer, startServer } from '../../../src/server/serve.js';
import { runCli } from './support.js';

// Tiny runs: the figures are not judged (no timing asserts), only what the command reports and how it exits.
const SHORT = ['--seconds', '0.3', '--connections', '2', '--in-flight', '4'];

describe('wallet-partner-kit bench', () => {
  let server: RunningServer;
  let dir: string;
  let configFile: string;
  const tillKey = demoConfig.tills[0].key;

  beforeAll(async () => {
    // A real cash desk server in this process: the demo configuration without payments, on a free port.
    const { pay: _pay, ...withoutPay } = demoConfig;
    server = await startServer(resolveServeConfig(withoutPay, {}, { port: 0 }));
    dir = mkdtempSync(join(tmpdir(), 'wpk-bench-'));
    configFile = join(dir, 'cashdesk.json');
    writeFileSync(configFile, JSON.stringify(withoutPay));
  });

  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'measures a running server over HTTP and the bridge with valid ' + 'barcodes drawn from --config, as JSON',
    async () => {
      const run = await runCli([
        'bench',
        '--url',
        server.url,
        '--config',
        configFile,
        '--till-key',
        tillKey,
        ...SHORT,
        '--json',
      ]);
      expect(run.code, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as BenchReport;
      expect(report).toMatchObject({
        target: { url: server.url, wsUrl: server.wsUrl, inProcess: false },
        barcodes: { kind: 'valid' },
        settings: { seconds: 0.3, connections: 2, inFlight: 4 },
        minRate: null,
        failures: [],
        passed: true,
        machine: { cores: expect.any(Number), node: process.version },
      });
      expect(report.transports.map((t) => t.transport)).toEqual(['http', 'bridge']);
      for (const t of report.transports) {
        expect(t).toMatchObject({ rate: expect.any(Number), errors: 0, firstError: null, seconds: 0.3 });
        expect(t.calls).toBeGreaterThan(0);
        // Every barcode drawn with the server's key is a fresh card's, so each verifies.
        expect(t.accepted).toBe(t.calls);
        expect(Object.keys(t.latencyMs).sort()).toEqual(['max', 'mean', 'p50', 'p90', 'p99']);
        expect(t.latencyMs.p50).toBeLessThanOrEqual(t.latencyMs.p99);
      }
    },
  );

  it('sends well-formed barcodes the server refuses when it has no configuration, and says so', async () => {
    const run = await runCli(['bench', '--url', server.url, ...SHORT, '--transport', 'http', '--json'], {
      WPK_TILL_KEY: tillKey,
    });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as BenchReport;
    expect(report.barcodes.kind).toBe('invalid');
    expect(report.transports).toHaveLength(1);
    expect(report.transports[0]).toMatchObject({ transport: 'http', accepted: 0, errors: 0 });
    expect(report.transports[0]!.calls).toBeGreaterThan(0);
  });

  it('exits 1 with one line when a rate is under --min-rate, against its own in-process demo server', async () => {
    const run = await runCli(['bench', ...SHORT, '--min-rate', '1e12', '--json']);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as BenchReport;
    expect(report.target.inProcess).toBe(true);
    expect(report.passed).toBe(false);
    expect(report.failures).toHaveLength(2);
    const lines = run.stderr
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('wallet-partner-kit:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^wallet-partner-kit: bench: HTTP [\d,]+\/s is under --min-rate 1,000,000,000,000; bridge /,
    );
  });

  it('exits 2 naming --till-key when the server knows no till with that key', async () => {
    const run = await runCli(['bench', '--url', server.url, '--till-key', 'not-a-till-key-of-this-server', ...SHORT]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toMatch(/^wallet-partner-kit: .*--till-key: .* answered 401/);
  });

  it('prints its usage with --help', async () => {
    const run = await runCli(['bench', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('--min-rate N');
  });
});
