import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpBonusHook } from '../../../src/cashdesk/bonus.js';
import { Counter } from '../../../src/cashdesk/metrics.js';

/** A loyalty system stand-in: the card number picks the answer; `hang` never answers. */
let server: Server;
let base: string;
const seen: Array<{ url: string; authorization: string | undefined }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
    const card = decodeURIComponent((req.url ?? '').split('/')[2] ?? '');
    if (card === 'hang') return;
    if (card === 'gone') return void res.writeHead(404).end('{"status":"NOT_FOUND"}');
    if (card === 'broken') return void res.writeHead(500).end();
    if (card === 'blocked')
      return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"available":false}');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"groups":[]}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('httpBonusHook', () => {
  it('says available on a 2xx, unavailable on 404 or available:false, and counts each outcome', async () => {
    const checks = new Counter('c', 'h', ['outcome']);
    const hook = httpBonusHook({ url: `${base}/card/{cardNumber}/x`, timeoutMs: 2000 }, checks);
    expect(await hook('4000123412341234')).toBe(true);
    expect(await hook('gone')).toBe(false);
    expect(await hook('blocked')).toBe(false);
    expect(await checks.countOf({ outcome: 'available' })).toBe(1);
    expect(await checks.countOf({ outcome: 'unavailable' })).toBe(2);
  });

  it('says unavailable and counts an error when the system fails or does not answer in time', async () => {
    const checks = new Counter('c', 'h', ['outcome']);
    const hook = httpBonusHook({ url: `${base}/card/{cardNumber}/x`, timeoutMs: 50 }, checks);
    expect(await hook('broken')).toBe(false);
    expect(await hook('hang')).toBe(false);
    expect(await checks.countOf({ outcome: 'error' })).toBe(2);
  });

  it('encodes the card number into the URL and sends Basic credentials when configured', async () => {
    const hook = httpBonusHook({
      url: `${base}/card/{cardNumber}/x`,
      timeoutMs: 2000,
      login: 'wallet',
      password: 'secret-pass',
    });
    expect(await hook('AB-12')).toBe(true);
    expect(seen.at(-1)).toEqual({
      url: '/card/AB-12/x',
      authorization: `Basic ${Buffer.from('wallet:secret-pass').toString('base64')}`,
    });
  });
});
