import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitOf, waitForDemoBanner } from '../../support/demo-child.js';

const root = join(import.meta.dirname, '..', '..', '..');
const cli = join(root, 'dist', 'src', 'cli', 'main.js');

function envWithoutDatabase(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info' };
  delete env.DATABASE_URL;
  return env;
}

function listenOn(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

async function run(args: string[]): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const child = spawn(process.execPath, [cli, ...args], { cwd: root, env: envWithoutDatabase() });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  return { code: await exitOf(child), stderr, stdout };
}

describe('wallet-partner-kit demo', () => {
  it("keeps each server's data in a subfolder of --data, says so (and that DATABASE_URL is not used), and exits 0 " +
    'on SIGTERM', async () => {
    const data = mkdtempSync(join(tmpdir(), 'wpk-demo-cli-'));
    const env = { ...envWithoutDatabase(), DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' };
    const child = spawn(process.execPath, [cli, 'demo', '--port', '0', '--data', data], { cwd: root, env });
    const output = { text: '' };
    try {
      const banner = await waitForDemoBanner(child, output);
      expect(output.text).toContain(
        `Data       ${data} (cashdesk/, sandbox/, loyalty/); DATABASE_URL is not used (the demo runs on PGlite)\n`,
      );
      // The banner comes after the start-up's log lines, not among them.
      const listening = output.text.indexOf('"msg":"demo system listening"');
      expect(listening).toBeGreaterThan(-1);
      expect(listening).toBeLessThan(output.text.indexOf('wallet-partner-kit demo system'));
      expect(await (await fetch(`${banner.sandboxUrl}/healthz`)).json()).toMatchObject({ database: 'pglite' });
      const exited = exitOf(child);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      for (const sub of ['cashdesk', 'sandbox', 'loyalty'])
        expect(readdirSync(join(data, sub)).length, sub).toBeGreaterThan(0);
    } finally {
      child.kill('SIGKILL');
      rmSync(data, { recursive: true, force: true });
    }
  }, 480_000);

  it('says in one line which port is in use, and exits 1 as every command does', async () => {
    const taken = await listenOn(0);
    const port = (taken.address() as { port: number }).port - 11; // the Loyalty server's port
    try {
      const { code, stderr } = await run(['demo', '--port', String(port)]);
      expect(code).toBe(1);
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toContain(`127.0.0.1:${port + 11} (Loyalty server): already in use`);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 60_000);

  it('refuses a bad --port in one line, with exit code 2', async () => {
    const { code, stderr } = await run(['demo', '--port', 'eighty']);
    expect(code).toBe(2);
    expect(stderr).toContain('--port: must be an integer from 0 to 65523');
  }, 60_000);
});
