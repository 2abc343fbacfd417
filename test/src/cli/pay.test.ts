import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoConfig } from '../../../src/demo.js';
import type { PayCheckReport } from '../../../src/entries/pay.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { startTestSandbox } from '../../support/sandbox.js';
import { childTestTimeout } from '../../support/cli-child.js';
import { Simulator } from '../pay/sandbox-harness.js';

const root = join(import.meta.dirname, '..', '..', '..');
const KEY = demoConfig.verifier.key;

/** The compiled CLI (global setup rebuilds it when the sources are newer), run to its end. */
function run(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const childEnv = {
    ...process.env,
    WPK_KEY: undefined,
    WPK_PAY_PROFILE: undefined,
    WPK_PAY_TOKEN_HEADER: undefined,
    ...env,
  };
  const child = spawn(process.execPath, [join(root, 'dist', 'src', 'cli', 'main.js'), ...args], {
    cwd: root,
    env: childEnv as NodeJS.ProcessEnv,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox({ demo: true });
});
afterAll(async () => {
  await sandbox?.close();
});

describe('wallet-partner-kit pay check', () => {
  it(
    'passes every operation against the demo sandbox (JSON, text with a barcode), and exits 1 on a refused key',
    async () => {
      const sim = new Simulator(sandbox.url);
      const [card, other] = [await sim.issueCard(), await sim.issueCard()];
      const [json, text, refused] = await Promise.all([
        run(['pay', 'check', '--url', sandbox.url, '--key', KEY, '--json']),
        run(['pay', 'check', '--url', sandbox.url, '--barcode', card.barcode, '--profile', 'document'], {
          WPK_KEY: KEY,
        }),
        run([
          'pay',
          'check',
          '--url',
          sandbox.url,
          '--key',
          'ab'.repeat(32),
          '--card-session',
          other.cardSession,
          '--json',
        ]),
      ]);

      expect(json.code, json.stderr).toBe(0);
      const report = JSON.parse(json.stdout) as PayCheckReport & { cardSessionFrom: string };
      expect(report.results.map((r) => `${r.verdict} ${r.path}`)).toEqual([
        'PASS /availability-info',
        'PASS /availability-info/task',
        'PASS /checkout',
        'PASS /status',
        'PASS /cancel',
      ]);
      expect(report.cardSessionFrom).toBe('sandbox');
      expect(report.results[0]!.exchanges[0]!.request.headers['x-wallet-token']).toBe('<masked>');
      expect((await sim.transaction(report.transactionId!)).status).toBe('cancelled');

      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toContain(`card session ${card.cardSession})`);
      for (const op of ['availability ', 'availabilityTask', 'checkout ', 'status '])
        expect(text.stdout).toMatch(new RegExp(`^PASS +${op}`, 'm'));
      expect(text.stdout).toMatch(/^SKIPPED +cancel .*\n.*no path for cancel/m);
      expect(text.stdout).toMatch(/^pay check: 4 PASS, 0 DIFFERS, 0 FAIL, 1 SKIPPED/m);

      expect(refused.code).toBe(1);
      const failed = JSON.parse(refused.stdout) as PayCheckReport;
      expect(failed.results[0]).toMatchObject({ verdict: 'FAIL', httpStatus: 401, failure: { code: 'TOKEN_INVALID' } });
      for (const out of [json, text, refused])
        expect(out.stdout + out.stderr).not.toMatch(new RegExp(`${KEY}|${'ab'.repeat(32)}`, 'i'));
    },
    childTestTimeout(1),
  );

  it('exits 2 naming --dialect when its file is missing, before asking the service anything', async () => {
    const requests: string[] = [];
    const service = createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = service.address() as AddressInfo;
      const url = `http://127.0.0.1:${port}`;
      const result = await run(['pay', 'check', '--url', url, '--key', KEY, '--dialect', 'no-such-dialect.json']);
      expect(result.code).toBe(2);
      expect(result.stderr.trim()).toBe(
        'wallet-partner-kit: Invalid arguments: --dialect no-such-dialect.json: no such file; give a JSON file or a ' +
          'preset (foreign)',
      );
      expect(requests).toEqual([]);
    } finally {
      await new Promise((resolve) => service.close(resolve));
    }
  });
});
