import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { pushAccount, PUSH_ACCOUNT_USAGE } from '../../../src/cli/commands/push-account.js';
import { ConfigError, type KitError } from '../../../src/errors.js';
import type { RunningSandbox } from '../../../src/entries/sandbox.js';
import { startTestSandbox } from '../../support/sandbox.js';
import { basic, call } from '../sandbox/push/harness.js';

const NO_DB = {} as NodeJS.ProcessEnv;

function captured() {
  const lines: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => {
    lines.push(String(line));
  });
  return lines;
}

async function refusal(argv: string[], env = NO_DB): Promise<KitError & { issues?: string[] }> {
  try {
    await pushAccount(argv, env);
  } catch (error) {
    return error as KitError & { issues?: string[] };
  }
  throw new Error('no refusal');
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('sandbox push-account create --url', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox?.close());

  it('creates the account in the running sandbox and prints the initial password and the secret once', async () => {
    const out = captured();
    await pushAccount(
      [
        'create',
        '--login',
        'cli-url',
        '--partner',
        'shop',
        '--callback-url',
        'http://127.0.0.1:1/cb',
        '--url',
        sandbox.url,
      ],
      NO_DB,
    );
    const text = out.join('\n');
    const password = /^ +password +(\S+)/m.exec(text)![1]!;
    expect(text).toMatch(/callback secret\s+whsec_/);
    expect(text).toContain('http://127.0.0.1:1/cb');
    const reset = await call(
      sandbox.url,
      'PUT',
      '/public/user/reset-password',
      { password: 'cli-new-password' },
      basic('cli-url', password),
    );
    expect(reset.status).toBe(200);
  });

  it('prints JSON with --json, takes the given password and settings', async () => {
    const out = captured();
    await pushAccount(
      [
        'create',
        '--login',
        'cli-json',
        '--partner',
        'shop',
        '--password',
        'given-password-9',
        '--batch-interval-ms',
        '0',
        '--no-simulate-delivery',
        '--json',
        '--url',
        sandbox.url,
      ],
      NO_DB,
    );
    expect(JSON.parse(out.join('\n'))).toMatchObject({
      login: 'cli-json',
      password: 'given-password-9',
      batchIntervalMs: 0,
      simulateDelivery: false,
    });
  });

  it('says the login exists, without echoing the password', async () => {
    captured();
    const error = await refusal([
      'create',
      '--login',
      'cli-url',
      '--partner',
      'x',
      '--password',
      'secret-password-1',
      '--url',
      sandbox.url,
    ]);
    expect(error.code).toBe('ARGUMENT_INVALID');
    expect(error.message).toContain('login: cli-url exists');
    expect(error.message).not.toContain('secret-password-1');
  });
});

describe('sandbox push-account create --data', () => {
  it("creates the account in a stopped sandbox's data folder, which the sandbox then serves", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wpk-push-cli-'));
    try {
      const out = captured();
      await pushAccount(['create', '--login', 'cli-data', '--partner', 'shop', '--data', dir, '--json'], NO_DB);
      const created = JSON.parse(out.join('\n'));
      expect(created).toMatchObject({ login: 'cli-data', partner: 'shop', passwordReset: false });
      await expect(
        pushAccount(['create', '--login', 'cli-data', '--partner', 'shop', '--data', dir], NO_DB),
      ).rejects.toThrow('--login: cli-data exists');
      const sandbox = await startTestSandbox({ dataDir: dir });
      try {
        const reset = await call(
          sandbox.url,
          'PUT',
          '/public/user/reset-password',
          { password: 'cli-new-password' },
          basic('cli-data', created.password),
        );
        expect(reset.status).toBe(200);
      } finally {
        await sandbox.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('sandbox push-account refusals', () => {
  it('refuses without --url, --data or DATABASE_URL, saying why', async () => {
    const error = await refusal(['create', '--login', 'x', '--partner', 'p']);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.issues).toEqual([
      '--url or --data: needed (or DATABASE_URL); a sandbox that keeps its data in memory can only be reached ' +
        'with --url',
    ]);
  });

  it('names every bad option at once, never echoing a password', async () => {
    const error = await refusal([
      'create',
      '--password',
      'short',
      '--callback-url',
      'nope',
      '--batch-interval-ms',
      'soon',
      '--url',
      'x',
      '--data',
      'd',
    ]);
    expect(error.issues).toEqual([
      '--login: is required',
      '--partner: is required',
      '--callback-url: must be an http(s) URL',
      '--password: must be 12 to 128 characters',
      '--batch-interval-ms: must be a number of ms',
      '--url, --data: give one',
      '--url: must be an http(s) URL',
    ]);
    expect(error.message).not.toContain('short');
  });

  it('says so when no sandbox answers at --url', async () => {
    const error = await refusal(['create', '--login', 'x', '--partner', 'p', '--url', 'http://127.0.0.1:9']);
    expect(error.code).toBe('BACKEND_UNAVAILABLE');
  });

  it('prints its usage and refuses unknown actions', async () => {
    const out = captured();
    await pushAccount([], NO_DB);
    expect(out.join('\n')).toBe(PUSH_ACCOUNT_USAGE);
    expect((await refusal(['delete'])).code).toBe('ARGUMENT_INVALID');
  });
});
