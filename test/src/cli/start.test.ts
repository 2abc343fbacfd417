import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { demoConfig, drawBarcode } from '../../../src/index.js';
import { childTestTimeout, waitForOutput } from '../../support/cli-child.js';

const root = join(import.meta.dirname, '..', '..', '..');

/** Resolves with the banner's HTTP and WebSocket URLs once the server prints them. */
async function waitForBanner(child: ChildProcess, output: { text: string }): Promise<{ url: string; wsUrl: string }> {
  const [, url, wsUrl] = await waitForOutput(child, output, /HTTP\s+(http:\/\/127\.0\.0\.1:\d+)[\s\S]*WebSocket\s+(ws:\/\/127\.0\.0\.1:\d+\/ws)/);
  return { url: url!, wsUrl: wsUrl! };
}

function bridgeCall(wsUrl: string, key: string, request: object): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(wsUrl, 'wallet-pos.v1', { headers: { Authorization: `Bearer ${key}` } });
    socket.on('open', () => socket.send(JSON.stringify(request)));
    socket.on('message', (data) => {
      resolve(JSON.parse(String(data)));
      socket.close();
    });
    socket.on('error', reject);
  });
}

describe('npm start', () => {
  it('comes up on the demo config, answers /healthz and the bridge, and exits cleanly on SIGTERM', async () => {
    const child = spawn('npm', ['start', '--', '--port', '0'], { cwd: root, env: { ...process.env, LOG_LEVEL: 'info' } });
    const output = { text: '' };
    try {
      const { url, wsUrl } = await waitForBanner(child, output);
      expect(output.text).toContain('DEMO');
      expect(output.text).toMatch(/curl -s -H 'Authorization: Bearer /);

      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok' });

      const v = demoConfig.verifier;
      const card = '4000555566667777';
      const fullBarcode = drawBarcode({ ...v, cardNumber: card, cardSession: 'ZX81ZX81' });
      const answer = await bridgeCall(wsUrl, demoConfig.tills[0].key, { jsonrpc: '2.0', id: 'call-1', method: 'barcode.verify', params: { fullBarcode } });
      expect(answer).toMatchObject({ jsonrpc: '2.0', id: 'call-1', result: { resultCode: 'CARDSESSION_AVAILABLE', cardNumber: card } });

      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(output.text).toContain('"msg":"stopped"');
    } finally {
      child.kill('SIGKILL');
    }
  }, childTestTimeout(1));
});
