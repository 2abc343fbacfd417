import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawBarcode } from '../../../adapters/node/primitives.js';
import { resolveServeConfig } from '../../../src/server/config.js';
import { startServer, type RunningServer } from '../../../src/server/serve.js';
import { BASE_CONFIG } from '../../support/fixtures.js';
import { captureLog, leakedSecrets, type CapturedLog } from '../../support/log-capture.js';

// The cash desk server keeps no database today (replay marks live in memory or Redis), so this runs once.
describe('the cash desk server, given NUL bytes, deep JSON and clients that go away', () => {
  const key = randomBytes(32).toString('hex');
  const tillKey = `till-${randomBytes(16).toString('hex')}`;
  const cardNumber = '4000123412349876';
  const cardSession = 'QW12ER34';
  let log: CapturedLog;
  let server: RunningServer;
  let barcode: string;
  const post = (path: string, body: string, headers: Record<string, string> = { authorization: `Bearer ${tillKey}` }) =>
    fetch(server.url + path, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

  async function refusal(res: Response) {
    const body = JSON.parse(await res.text()) as { status: string; errors: string[] };
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(body).toEqual({ status: expect.any(String), errors: expect.any(Array), requestId: expect.any(String) });
    return { status: res.status, body, headers: res.headers };
  }

  beforeAll(async () => {
    log = captureLog();
    const config = resolveServeConfig(
      { verifier: { ...BASE_CONFIG, key }, tills: [{ id: 'till-1', key: tillKey }] },
      {},
      { port: 0 },
    );
    server = await startServer(config, log.logger);
    const { key: _key, ...layout } = { ...BASE_CONFIG, key };
    barcode = drawBarcode({ ...layout, key, cardNumber, cardSession });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers a barcode holding a NUL with VALIDATION_FAILED, and a good one still verifies', async () => {
    const res = await post(
      '/v1/barcode/verify',
      JSON.stringify({ fullBarcode: `CM;${cardNumber}\u0000;${cardSession};01234567` }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ resultCode: 'VALIDATION_FAILED' });
    const good = await post('/v1/barcode/verify', JSON.stringify({ fullBarcode: barcode }));
    expect(await good.json()).toMatchObject({ resultCode: 'CARDSESSION_AVAILABLE' });
  });

  it('answers bodies nested 5000 deep with 400 on both POST routes, no stack overflow', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    expect((await refusal(await post('/v1/barcode/verify', `{"fullBarcode":${deep}}`))).status).toBe(400);
    expect(await refusal(await post('/v1/token', `{"requestId":${deep}}`))).toMatchObject({
      status: 400,
      body: { status: 'REQUEST_DATA_INVALID' },
    });
    expect(await refusal(await post('/v1/token', JSON.stringify({ requestData: `{"a":${deep}}` })))).toMatchObject({
      status: 400,
      body: { status: 'REQUEST_DATA_INVALID' },
    });
    expect((await refusal(await post('/v1/token', `{"requestData":${deep}}`))).status).toBe(400);
  });

  it('refuses a till key holding a control character with 401', async () => {
    expect(
      await refusal(await post(`/v1/barcode/verify?key=${tillKey}%00`, JSON.stringify({ fullBarcode: barcode }), {})),
    ).toMatchObject({ status: 401, body: { status: 'UNAUTHORIZED' } });
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const res = await refusal(await fetch(`${server.url}/v1/barcode/verify`));
    expect(res).toMatchObject({
      status: 405,
      body: { status: 'METHOD_NOT_ALLOWED', errors: ['method: must be POST'] },
    });
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('logs a client gone mid-body at info and never counts it as a 500', async () => {
    const { port } = new URL(server.url);
    await new Promise<void>((resolve) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        path: '/v1/barcode/verify',
        method: 'POST',
        headers: { authorization: `Bearer ${tillKey}`, 'content-type': 'application/json', 'content-length': '1000' },
      });
      req.on('error', () => resolve());
      req.write('{"fullBarcode":"CM;', () => req.destroy());
      req.on('close', () => resolve());
    });
    await expect
      .poll(() => log.lines().map((l) => l.msg), { timeout: 10_000 })
      .toContain('request aborted by the client');
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).not.toMatch(/wpk_http_requests_total\{[^}]*status="500"/);
  });

  it('wrote neither keys nor card data to its log, and no error', () => {
    expect(leakedSecrets(log.text(), [key, tillKey, barcode, cardNumber, cardSession])).toEqual([]);
    expect(log.lines().filter((l) => (l.level as number) >= 50)).toEqual([]);
  });
});
