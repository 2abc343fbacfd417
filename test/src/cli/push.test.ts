import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedNumbers, startPushSandbox, type PushSandbox } from '../push/sandbox.js';

const root = join(import.meta.dirname, '..', '..', '..');
const cli = join(root, 'dist', 'src', 'cli', 'main.js');
const NEW_PASSWORD = 'cli-password-0123456';

function run(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('wallet-partner-kit push', () => {
  let sandbox: PushSandbox;
  let login: string;
  let initial: string;
  const dir = mkdtempSync(join(tmpdir(), 'wpk-push-cli-'));

  beforeAll(async () => {
    sandbox = await startPushSandbox();
    ({ login, password: initial } = await sandbox.createAccount({ batchIntervalMs: 0, simulateDelivery: false }));
  });
  afterAll(async () => {
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('resets the initial password', async () => {
    const result = await run(
      ['push', 'reset-password', '--url', sandbox.url, '--login', login, '--new-password', NEW_PASSWORD],
      { PUSH_PASSWORD: initial },
    );
    expect(result).toMatchObject({ code: 0, stdout: 'password reset: use the new one from now on\n' });
  });

  it(
    'sends a CSV campaign with one progress line per batch when stdout is not a terminal, and resumes to nothing ' +
      'the second time',
    async () => {
      const file = join(dir, 'numbers.csv');
      writeFileSync(file, ['phone', ...generatedNumbers(2_500), '79000000001', 'bogus'].join('\n') + '\n');
      const args = [
        'push',
        'send',
        '--url',
        sandbox.url,
        '--login',
        login,
        '--file',
        file,
        '--sub-id',
        'cli',
        '--title',
        'CLI',
        '--text',
        'From the command line',
        '--batch-size',
        '1000',
      ];
      const first = await run(args, { PUSH_PASSWORD: NEW_PASSWORD });
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      const lines = first.stdout.trimEnd().split('\n');
      expect(lines.slice(0, 3).map((l) => l.replace(/\| \d+\/s \| ETA \S+/, '| R/s | ETA T'))).toEqual([
        'sent 1000/2502 (40.0%) | R/s | ETA T | accepted 1000 rejected 0',
        'sent 2000/2502 (79.9%) | R/s | ETA T | accepted 2000 rejected 0',
        'sent 2502/2502 (100.0%) | R/s | ETA T | accepted 2500 rejected 2',
      ]);
      expect(lines[3]).toMatch(/^campaign [0-9a-f-]{36}: 2502 read, 2500 accepted, 2 rejected; 3 batches; \d+\.\d s$/);
      expect(lines[4]).toBe(`per-number results: ${file}.results.ndjson`);
      expect(readFileSync(`${file}.results.ndjson`, 'utf8').trimEnd().split('\n')).toHaveLength(2_502);
      expect(await sandbox.stats(login, 'cli')).toMatchObject({ messages: 2_500, duplicateMsisdn: 0, batches: 3 });

      const again = await run(args, { PUSH_PASSWORD: NEW_PASSWORD });
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('3 batches, 3 of them sent by an earlier run');
      expect(await sandbox.stats(login, 'cli')).toMatchObject({ messages: 2_500, batches: 3 });
    },
  );

  it(
    "says how to resume or restart when a second campaign from the same numbers file meets the first one's " +
      'progress file',
    async () => {
      const file = join(dir, 'twice.csv');
      writeFileSync(file, `${generatedNumbers(3).join('\n')}\n`);
      const campaign = (subId: string, more: string[] = []) =>
        run(
          [
            'push',
            'send',
            '--url',
            sandbox.url,
            '--login',
            login,
            '--file',
            file,
            '--sub-id',
            subId,
            '--title',
            'T',
            '--text',
            'T',
            ...more,
          ],
          { PUSH_PASSWORD: NEW_PASSWORD },
        );
      expect((await campaign('first')).code).toBe(0);
      const second = await campaign('second');
      expect(second.code).toBe(1);
      expect(second.stderr).toBe(
        `wallet-partner-kit push: PROGRESS_MISMATCH: ${file}.progress.json: made for another campaign (subId or ` +
          `message ` +
          'differs); use another progress file. To resume that campaign, run it with its own --sub-id, --title, ' +
          '--text and --batch-size; ' +
          `to send this one as a new campaign, give it files of its own (--progress FILE --results FILE) or delete ` +
          `${file}.progress.json ` +
          `and ${file}.results.ndjson\n`,
      );
      const own = await campaign('second', [
        '--progress',
        join(dir, 'second.progress.json'),
        '--results',
        join(dir, 'second.ndjson'),
      ]);
      expect(own).toMatchObject({ code: 0, stderr: '' });
    },
  );

  it('exits 1 naming the code on a refusal, never printing the password', async () => {
    const file = join(dir, 'one.ndjson');
    writeFileSync(file, '"79000000009"\n');
    const result = await run([
      'push',
      'send',
      '--url',
      sandbox.url,
      '--login',
      login,
      '--password',
      'wrong-password-xyz',
      '--file',
      file,
      '--sub-id',
      'x',
      '--title',
      't',
      '--text',
      't',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^wallet-partner-kit push: UNAUTHORIZED: batch 0: /);
    expect(result.stderr + result.stdout).not.toContain('wrong-password-xyz');
  });

  it('exits 2 on a missing option', async () => {
    const result = await run(['push', 'send', '--url', sandbox.url, '--login', login, '--sub-id', 'x'], {
      PUSH_PASSWORD: NEW_PASSWORD,
    });
    expect(result).toMatchObject({ code: 2, stderr: 'wallet-partner-kit: --file is required\n' });
  });
});
