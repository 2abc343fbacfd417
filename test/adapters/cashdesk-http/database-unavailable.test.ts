import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp } from '../../../adapters/cashdesk-http/index.js';
import { serveHttp } from '../../../adapters/http-server/index.js';
import { createVerifier } from '../../../src/entries/index.js';
import { CashDeskService } from '../../../src/cashdesk/service.js';
import { TillRegistry } from '../../../src/cashdesk/tills.js';
import type { VerifierConfig } from '../../../adapters/node/config.js';
import { BASE_CONFIG, NOW } from '../../support/fixtures.js';
import { paymentRequests } from '../../support/cashdesk-calls.js';
import { SwitchablePayments } from '../../support/down-payments.js';
import { barcode, request, TILL_KEY } from './client.js';

describe('the HTTP adapter while the database is down', () => {
  const payments = new SwitchablePayments();
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const verifier = createVerifier({ ...BASE_CONFIG, backend: 'wasm', clock: () => NOW } as VerifierConfig);
    const tills = new TillRegistry([{ id: 'till-1', key: TILL_KEY }]);
    const service = new CashDeskService({ verifier, tills, payments });
    const http = await serveHttp(createHttpApp(service));
    url = http.url;
    close = async () => {
      await http.close();
      await verifier.close();
    };
  });
  afterAll(() => close?.());

  it.each(paymentRequests('p-1', barcode()))('answers $name 503 DATABASE_UNAVAILABLE, Retry-After', async (call) => {
    const { method, path, body } = call;
    payments.down = true;
    const reply = await request(url, path, { method, ...(body === undefined ? {} : { body }) });
    expect(reply.status).toBe(503);
    expect(reply.headers.get('retry-after')).toBe('2');
    expect(reply.body).toMatchObject({
      status: 'DATABASE_UNAVAILABLE',
      errors: ['The database is unavailable: retry later'],
    });
  });

  it('answers a Pay webhook 503 DATABASE_UNAVAILABLE with Retry-After when its state cannot be written', async () => {
    payments.down = true;
    const reply = await request(url, '/webhooks/pay', { body: { type: 'transaction.updated' }, key: null });
    expect(reply.status).toBe(503);
    expect(reply.headers.get('retry-after')).toBe('2');
    expect(reply.body).toMatchObject({ status: 'DATABASE_UNAVAILABLE' });
  });

  it('counts a refused payment request under 503, not 500', async () => {
    payments.down = true;
    await request(url, '/v1/payments/p-1');
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toMatch(/route="\/v1\/payments\/\{paymentId\}",status="503"/);
    expect(metrics).not.toMatch(/route="\/v1\/payments\/\{paymentId\}",status="500"/);
  });

  it('still verifies barcodes, which need no database', async () => {
    payments.down = true;
    const reply = await request(url, '/v1/barcode/verify', { body: { fullBarcode: barcode() } });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ resultCode: 'CARDSESSION_AVAILABLE' });
  });

  it('answers the payment routes again once the database is back', async () => {
    payments.down = false;
    const reply = await request(url, '/v1/payments/p-1');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ paymentId: 'p-1' });
  });
});
