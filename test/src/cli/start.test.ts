import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitOf, waitForDemoBanner } from '../../support/demo-child.js';
import { RpcClient } from '../../support/ws-client.js';

const root = join(import.meta.dirname, '..', '..', '..');

describe('npm start', () => {
  it('runs the demo system: three healthy servers, a curl line and a WebSocket line with two fresh barcodes, exit 0 on SIGTERM', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info' };
    delete env.DATABASE_URL;
    const child = spawn('npm', ['start', '--', '--port', '0'], { cwd: root, env });
    const output = { text: '' };
    try {
      const banner = await waitForDemoBanner(child, output);
      expect(output.text).toContain('DEMO');
      for (const url of [banner.cashDeskUrl, banner.sandboxUrl, banner.loyaltyUrl]) {
        expect(await (await fetch(`${url}/healthz`)).json()).toMatchObject({ status: 'ok' });
      }

      // The curl line and the WebSocket line each carry a barcode never seen: neither answers REPLAYED.
      expect(banner.curlBarcode).not.toBe(banner.wsBarcode);
      const curl = await fetch(`${banner.cashDeskUrl}/v1/barcode/verify`, {
        method: 'POST', headers: { authorization: `Bearer ${banner.tillKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ fullBarcode: banner.curlBarcode }),
      });
      expect(await curl.json()).toMatchObject({ resultCode: 'CARDSESSION_AVAILABLE' });
      const till = await RpcClient.connect(banner.wsUrl, { key: banner.tillKey });
      try {
        expect(await till.call('barcode.verify', { fullBarcode: banner.wsBarcode })).toMatchObject({ resultCode: 'CARDSESSION_AVAILABLE', cardNumber: banner.wsCard });
      } finally {
        till.ws.close();
      }

      const exited = exitOf(child);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(output.text).toContain('"msg":"stopped"');
    } finally {
      child.kill('SIGKILL');
    }
  }, 300_000);
});
