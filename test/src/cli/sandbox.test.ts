import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { childTestTimeout, waitForOutput } from '../../support/cli-child.js';

const root = join(import.meta.dirname, '..', '..', '..');
const cli = join(root, 'dist', 'src', 'cli', 'main.js');

async function waitForUrl(child: ChildProcess, output: { text: string }): Promise<string> {
  return (await waitForOutput(child, output, /URL\s+(http:\/\/127\.0\.0\.1:\d+)/))[1]!;
}

describe('wallet-partner-kit sandbox', () => {
  it(
    'starts on a data folder with --demo, answers /healthz and /openapi.json, and exits 0 on SIGTERM',
    async () => {
      const data = mkdtempSync(join(tmpdir(), 'wpk-sandbox-cli-'));
      const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info' };
      delete env.DATABASE_URL;
      const child = spawn(process.execPath, [cli, 'sandbox', '--port', '0', '--demo', '--data', data], {
        cwd: root,
        env,
      });
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
    },
    childTestTimeout(1),
  );

  it(
    'refuses bad options with one line naming them and exit code 2',
    async () => {
      const child = spawn(process.execPath, [cli, 'sandbox', '--port', 'eighty'], { cwd: root });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(2);
      expect(stderr).toContain('--port: must be an integer from 0 to 65535');
    },
    childTestTimeout(1),
  );
});
