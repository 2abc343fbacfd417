import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier, demoConfig } from '../../../../src/entries/index.js';
import { ConfigError } from '../../../../src/errors.js';
import { createPayModule, resolvePayOptions } from '../../../../src/sandbox/pay/index.js';
import type { RunningSandbox } from '../../../../src/entries/sandbox.js';
import { startTestSandbox } from '../../../support/sandbox.js';

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('sandbox Pay module with --demo', () => {
  let running: RunningSandbox;
  beforeAll(async () => {
    running = await startTestSandbox({ demo: true, timeScale: 1000 }, [createPayModule()]);
  });
  afterAll(async () => {
    await running?.close();
  });

  it("knows the demo partner: a demo verifier's tokens and barcodes work end to end", async () => {
    expect(running.sandbox.banner).toEqual(
      expect.arrayContaining(['Simulator  {url}/sandbox/app', expect.stringContaining("-d '{}' {url}/sandbox/cards")]),
    );
    const verifier = createVerifier({ ...demoConfig.verifier });
    const card = (await (await fetch(`${running.url}/sandbox/cards`, json({}))).json()) as {
      barcode: string;
      cardSession: string;
    };
    const scanned = verifier.barcodeVerify(card.barcode);
    expect(scanned).toMatchObject({ resultCode: 'CARDSESSION_AVAILABLE', cardSession: card.cardSession });
    const text = JSON.stringify({ cardSession: scanned.cardSession });
    const res = await fetch(`${running.url}/availability-info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-wallet-token': verifier.getToken(text) },
      body: text,
    });
    expect(res.status).toBe(200);
  });

  it('serves the simulator page and the Pay paths in /openapi.json', async () => {
    const page = await fetch(`${running.url}/sandbox/app`);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('<title>Wallet app');
    const doc = (await (await fetch(`${running.url}/openapi.json`)).json()) as {
      paths: Record<string, unknown>;
      webhooks: Record<string, unknown>;
    };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/checkout', '/refund', '/sandbox/cards', '/sandbox/faults']),
    );
    expect(doc.webhooks['transaction.updated']).toBeDefined();
  });

  it('validates simulator input with the error envelope', async () => {
    const bad = await fetch(
      `${running.url}/sandbox/partners`,
      json({ partnerId: 'p 1', key: 'xyz', webhookUrl: 'ftp://x' }),
    );
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { errors: string[] }).errors).toEqual([
      'partnerId: must be 1 to 64 of [A-Za-z0-9._:-]',
      'key: must be hex of 16 to 1024 bytes',
      'webhookUrl: must be an http(s) URL',
    ]);
    const unknown = await fetch(`${running.url}/sandbox/cards`, json({ partnerId: 'nobody' }));
    expect(await unknown.json()).toMatchObject({ status: 'NOT_FOUND', errors: ['partnerId: no such partner'] });
    const notJson = await fetch(`${running.url}/checkout`, {
      method: 'POST',
      headers: {
        'content-type': 'text/plain',
        'x-wallet-token': createVerifier({ ...demoConfig.verifier }).getToken('{}'),
      },
      body: '{}',
    });
    expect(notJson.status).toBe(415);
  });
});

describe('resolvePayOptions', () => {
  it('defaults to 900 s card sessions, 300 s invoices and one provider', () => {
    expect(resolvePayOptions()).toMatchObject({
      cardSessionTtlSeconds: 900,
      invoiceTtlSeconds: 300,
      providers: [{ providerId: 'wallet', name: 'Wallet Pay' }],
    });
  });

  it('names every bad option', () => {
    expect(() => resolvePayOptions({ cardSessionTtlSeconds: 0, invoiceTtlSeconds: 1.5 })).toThrow(ConfigError);
    try {
      resolvePayOptions({ cardSessionTtlSeconds: 0, invoiceTtlSeconds: 1.5 });
    } catch (e) {
      expect((e as ConfigError).issues.map((i) => i.split(':')[0])).toEqual([
        'cardSessionTtlSeconds',
        'invoiceTtlSeconds',
      ]);
    }
  });
});
