import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { demoConfig } from '../../../src/entries/index.js';
import { createLoyaltyClient } from '../../../src/entries/loyalty.js';
import { childTestTimeout, waitForOutput } from '../../support/cli-child.js';

const root = join(import.meta.dirname, '..', '..', '..');
const { login, password } = demoConfig.loyalty;

/** The compiled CLI (global setup rebuilds it when the sources are newer): no tsx compile per child. */
function cli(args: string[], env: Record<string, string | undefined> = {}): ChildProcess {
  const childEnv: Record<string, string | undefined> = {
    ...process.env,
    LOG_LEVEL: 'info',
    DATABASE_URL: undefined,
    ...env,
  };
  return spawn(process.execPath, [join(root, 'dist', 'src', 'cli', 'main.js'), ...args], {
    cwd: root,
    env: childEnv as NodeJS.ProcessEnv,
  });
}

function run(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = cli(args, env);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr!.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

async function waitForUrl(child: ChildProcess, output: { text: string }): Promise<string> {
  return (await waitForOutput(child, output, /URL\s+(http:\/\/127\.0\.0\.1:\d+)/))[1]!;
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  return exited;
}

// The three start their own processes on free ports and share nothing, so they run side by side (PGlite cold starts
// dominate).
describe.concurrent('wallet-partner-kit loyalty', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it(
    'serves the demo program on loopback with a banner, passes `loyalty check`, fails it with wrong credentials, ' +
      'and drains on SIGTERM',
    async ({ expect }) => {
      const child = cli(['loyalty', '--demo', '--port', '0']);
      const output = { text: '' };
      try {
        // In memory the banner comes as soon as the port is bound and requests wait for the database; the
        // clients below give up after 10 s, so they start once the server says it is ready.
        const ready = waitForOutput(child, { text: '' }, /"msg":"loyalty server listening"/, 'ready');
        const url = await waitForUrl(child, output);
        await ready;
        expect(output.text).toContain('DEMO');
        expect(output.text).toContain(`Login      ${login}`);
        expect(output.text).toContain(`Password   ${password}`);
        expect(output.text).toMatch(new RegExp(`curl -s -u '${login}:${password}' .* ${url}/v1/card/anonymous`));

        const card = await createLoyaltyClient({ baseUrl: url, login, password }).issueAnonymousCard('cli-1');
        expect(
          (await createLoyaltyClient({ baseUrl: url, login, password }).sendPromoCode(card.cardNumber, 'WELCOME100'))
            .result,
        ).toBe('APPLIED');

        const [passed, failed] = await Promise.all([
          run(['loyalty', 'check', '--url', url, '--login', login, '--password', password]),
          run(['loyalty', 'check', '--url', url], { WPK_LOYALTY_LOGIN: login, WPK_LOYALTY_PASSWORD: 'wrong-password' }),
        ]);
        expect(passed.code).toBe(0);
        const lines = passed.stdout.trim().split('\n');
        expect(lines.slice(0, 7)).toEqual([
          'PASS issueAnonymousCard',
          'PASS basicAuth',
          'PASS listCategories',
          'PASS getFavoriteCategories',
          'PASS setFavoriteCategories',
          'PASS sendPromoCode',
          'PASS sendReceiptQr',
        ]);
        expect(lines[7]).toBe('conformance: all passed');

        expect(failed.code).toBe(1);
        expect(failed.stdout).toMatch(/^FAIL issueAnonymousCard: issue: expected 200, got HTTP 401/m);

        expect(await stop(child)).toBe(0);
        expect(output.text).toContain('"msg":"stopped"');
      } finally {
        child.kill('SIGKILL');
      }
    },
    childTestTimeout(1),
  );

  it(
    'keeps cards across restarts with --data, and takes its configuration from WPK_* without --demo',
    async ({ expect }) => {
      const dir = mkdtempSync(join(tmpdir(), 'wpk-loyalty-'));
      dirs.push(dir);
      const env = { WPK_KEY: 'ab'.repeat(32), WPK_LOYALTY_LOGIN: 'wallet', WPK_LOYALTY_PASSWORD: 'wallet-password-1' };
      const issue = async () => {
        const child = cli(['loyalty', '--port', '0', '--data', dir], env);
        try {
          const output = { text: '' };
          const url = await waitForUrl(child, output);
          expect(output.text).not.toContain('DEMO');
          const card = await createLoyaltyClient({
            baseUrl: url,
            login: 'wallet',
            password: 'wallet-password-1',
          }).issueAnonymousCard('kept-1');
          expect(await stop(child)).toBe(0);
          return card;
        } finally {
          child.kill('SIGKILL');
        }
      };
      const first = await issue();
      expect(await issue()).toEqual(first);
    },
    childTestTimeout(2),
  );

  it(
    'refuses to start without its configuration, and a check without a URL, with exit code 2',
    async ({ expect }) => {
      const [missing, badKey, noUrl] = await Promise.all([
        run(['loyalty', '--port', '0'], {
          WPK_KEY: undefined,
          WPK_LOYALTY_LOGIN: undefined,
          WPK_LOYALTY_PASSWORD: undefined,
        }),
        run(['loyalty', '--port', '0'], {
          WPK_KEY: 'zz',
          WPK_LOYALTY_LOGIN: 'w',
          WPK_LOYALTY_PASSWORD: 'long-enough-1',
        }),
        run(['loyalty', 'check', '--login', 'a', '--password', 'b']),
      ]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('WPK_KEY: must be set (or use --demo)');
      expect(badKey.code).toBe(2);
      expect(badKey.stderr).toContain('partnerKey: must be the partner key, hex of at least 16 bytes');
      expect(badKey.stderr).not.toContain('zz');
      expect(noUrl.code).toBe(2);
      expect(noUrl.stderr).toContain("--url: must be the server's http(s):// URL");
    },
    childTestTimeout(1),
  );
});
