import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const cli = join(root, 'dist', 'src', 'cli', 'main.js');

function waitForUrl(child: ChildProcess, output: { text: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within 30 s:\n${output.text}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output.text += chunk.toString();
      const url = /URL\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(output.text)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => { output.text += chunk.toString(); });
    child.on('exit', (code) => reject(new Error(`exited early with ${code}:\n${output.text}`)));
  });
}

describe('wallet-partner-kit sandbox', () => {
  it('starts on a data folder with --demo, answers /healthz and /openapi.json, and exits 0 on SIGTERM', async () => {
    const data = mkdtempSync(join(tmpdir(), 'wpk-sandbox-cli-'));
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info' };
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, [cli, 'sandbox', '--port', '0', '--demo', '--data', data], { cwd: root, env });
    const output = { text: '' };
    try {
      const url = await waitForUrl(child, output);
      expect(output.text).toContain('DEMO');
      expect(output.text).toContain(`pglite in ${data}`);
      expect(await (await fetch(`${url}/healthz`)).json()).toMatchObject({ status: 'ok', database: 'pglite' });
      expect(await (await fetch(`${url}/openapi.json`)).json()).toMatchObject({ openapi: '3.1.0' });
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      rmSync(data, { recursive: true, force: true });
    }
  }, 60_000);

  it('refuses bad options with one line naming them and exit code 2', async () => {
    const child = spawn(process.execPath, [cli, 'sandbox', '--port', 'eighty'], { cwd: root });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('--port: must be a number');
  }, 30_000);
});
