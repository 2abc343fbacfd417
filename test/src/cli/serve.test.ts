import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitOf } from '../../support/demo-child.js';
import { RpcClient } from '../../support/ws-client.js';

const root = join(import.meta.dirname, '..', '..', '..');
const cli = join(root, 'dist', 'src', 'cli', 'main.js');

describe('wallet-partner-kit serve --demo', () => {
  it('runs the cash desk server alone; its curl and WebSocket lines carry two different barcodes, each verifying ' +
    'once', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info' };
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, [cli, 'serve', '--demo', '--port', '0'], { cwd: root, env });
    let text = '';
    try {
      const banner = await new Promise<{ url: string; wsUrl: string; curl: string; ws: string; key: string }>(
        (resolve, reject) => {
          child.stdout.on('data', (chunk: Buffer) => {
            text += chunk.toString();
            const url = /HTTP\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1];
            const wsUrl = /WebSocket\s+(ws:\/\/127\.0\.0\.1:\d+\/ws)/.exec(text)?.[1];
            const key = /Till key\s+(\S+)/.exec(text)?.[1];
            const curl = /-d '\{"fullBarcode":"([^"]+)"\}'/.exec(text)?.[1];
            const ws = /"method":"barcode\.verify","params":\{"fullBarcode":"([^"]+)"/.exec(text)?.[1];
            if (url && wsUrl && key && curl && ws) resolve({ url, wsUrl, key, curl, ws });
          });
          child.stderr.on('data', (chunk: Buffer) => {
            text += chunk.toString();
          });
          child.on('exit', (code) => reject(new Error(`exited early with ${code}:\n${text}`)));
        },
      );
      expect(banner.curl).not.toBe(banner.ws);
      const curl = await fetch(`${banner.url}/v1/barcode/verify`, {
        method: 'POST',
        headers: { authorization: `Bearer ${banner.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ fullBarcode: banner.curl }),
      });
      expect(await curl.json()).toMatchObject({ resultCode: 'CARDSESSION_AVAILABLE' });
      const till = await RpcClient.connect(banner.wsUrl, { key: banner.key });
      try {
        expect(await till.call('barcode.verify', { fullBarcode: banner.ws })).toMatchObject({
          resultCode: 'CARDSESSION_AVAILABLE',
        });
      } finally {
        till.ws.close();
      }
      const exited = exitOf(child);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 120_000);
});
