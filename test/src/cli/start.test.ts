import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitOf, waitForDemoBanner } from '../../support/demo-child.js';

const root = join(import.meta.dirname, '..', '..', '..');

describe('npm start', () => {
  it('runs the demo system: three healthy servers, a curl line that verifies and a WebSocket line that pays (two ' +
    'fresh barcodes), exit 0 on SIGTERM', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info' };
    delete env.DATABASE_URL;
    // Its own process group, so a failed test can stop npm and the node it runs together.
    const child = spawn('npm', ['start', '--', '--port', '0'], { cwd: root, env, detached: true });
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
        method: 'POST',
        headers: { authorization: `Bearer ${banner.tillKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ fullBarcode: banner.curlBarcode }),
      });
      expect(await curl.json()).toMatchObject({ resultCode: 'CARDSESSION_AVAILABLE' });
      // The WebSocket line, pasted into a shell in the kit's folder, pays once the customer confirms in the app.
      const session = spawn('bash', ['-c', banner.wsLine], { cwd: root });
      let printed = '';
      let confirmed = false;
      session.stdout.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
        const transactionId = /"transactionId":"([^"]+)"/.exec(printed)?.[1];
        if (transactionId && !confirmed) {
          confirmed = true;
          void fetch(`${banner.sandboxUrl}/sandbox/app/transactions/${transactionId}/confirm`, { method: 'POST' });
        }
      });
      session.stderr.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
      });
      expect(await exitOf(session), printed).toBe(0);
      const frames = printed
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { result?: { phase: string }; method?: string; params?: { phase: string } });
      expect(frames.find((f) => f.result !== undefined)).toMatchObject({
        id: 1,
        result: { paymentId: `demo-${banner.wsCard}`, phase: 'pending' },
      });
      expect(frames.at(-1)).toMatchObject({
        method: 'pay.sessionUpdated',
        params: { paymentId: `demo-${banner.wsCard}`, phase: 'succeeded' },
      });

      const exited = exitOf(child);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(output.text).toContain('"msg":"stopped"');
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }, 480_000);
});
