import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../../src/entries/sandbox.js';
import { retryHeaders } from '../../../../src/sandbox/push/rate.js';
import { call, message, numbers, readyAccount } from './harness.js';
import { sandboxCases } from '../../../support/sandbox.js';
import { testClock } from '../../../support/clock.js';

describe('retryHeaders', () => {
  it('rounds the wait up to whole seconds, at least 1, and gives the exact ms', () => {
    expect(retryHeaders(0.2)).toEqual({ 'retry-after': '1', 'x-retry-after-ms': '1' });
    expect(retryHeaders(999)).toEqual({ 'retry-after': '1', 'x-retry-after-ms': '999' });
    expect(retryHeaders(1001)).toEqual({ 'retry-after': '2', 'x-retry-after-ms': '1001' });
    expect(retryHeaders(59_999.5)).toEqual({ 'retry-after': '60', 'x-retry-after-ms': '60000' });
  });
});

// A clock the test moves: the 304 rule reads ctx.clock(), so no real waiting.
const time = testClock(Date.parse('2026-11-23T10:00:00Z'));
const clock = time.now;

describe.each(sandboxCases('Push 304 rule'))('the 304 rule on $name', ({ start }) => {
  let sandbox: RunningSandbox;
  let url: string;
  beforeAll(async () => {
    sandbox = await start({ clock });
    url = sandbox.url;
  });
  afterAll(() => sandbox?.close());

  function expect304(res: Awaited<ReturnType<typeof call>>, seconds: number, ms: number) {
    expect(res.status).toBe(304);
    expect(res.text).toBe('');
    expect(res.headers.get('retry-after')).toBe(String(seconds));
    expect(res.headers.get('x-retry-after-ms')).toBe(String(ms));
    // (@hono/node-server adds a Content-Type to every answer; with no body that is harmless.)
  }

  it('answers 304 with Retry-After to a single push with the same subId to the same number within 60 s', async () => {
    const { auth } = await readyAccount(url, { simulateDelivery: false });
    const body = { msisdn: '79991234567', subId: 'promo', message };
    expect((await call(url, 'POST', '/public/push/single', body, auth)).status).toBe(200);
    time.advance(15_000);
    expect304(await call(url, 'POST', '/public/push/single', body, auth), 45, 45_000);
    time.advance(44_500);
    expect304(await call(url, 'POST', '/public/push/single', body, auth), 1, 500);
    time.advance(500);
    expect((await call(url, 'POST', '/public/push/single', body, auth)).status).toBe(200);
  });

  it('lets another subId or another number through at once, and does not count refused calls', async () => {
    const { login, auth } = await readyAccount(url, { simulateDelivery: false, singleIntervalMs: 10_000 });
    const body = { msisdn: '79991234567', subId: 'a', message };
    expect((await call(url, 'POST', '/public/push/single', body, auth)).status).toBe(200);
    expect((await call(url, 'POST', '/public/push/single', { ...body, subId: 'b' }, auth)).status).toBe(200);
    expect((await call(url, 'POST', '/public/push/single', { ...body, msisdn: '79991234568' }, auth)).status).toBe(200);
    time.advance(6_000);
    expect304(await call(url, 'POST', '/public/push/single', body, auth), 4, 4_000);
    // The refused call at +6 s did not restart the interval: +10 s from the accepted one is enough.
    time.advance(4_000);
    expect((await call(url, 'POST', '/public/push/single', body, auth)).status).toBe(200);
    expect((await call(url, 'GET', `/sandbox/push/stats?login=${login}`)).body).toMatchObject({
      messages: 4,
      singles: 4,
    });
  });

  it('answers 304 to a batch sooner than 1 s after the last accepted batch, even with another subId', async () => {
    const { login, auth } = await readyAccount(url, { simulateDelivery: false });
    expect(
      (await call(url, 'POST', '/public/push/batch', { msisdn: numbers(3), subId: 'c', message }, auth)).status,
    ).toBe(200);
    time.advance(250);
    expect304(
      await call(
        url,
        'POST',
        '/public/push/batch',
        { msisdn: numbers(3, 79_980_000_000), subId: 'other', message },
        auth,
      ),
      1,
      750,
    );
    time.advance(750);
    expect(
      (await call(url, 'POST', '/public/push/batch', { msisdn: numbers(3, 79_980_000_000), subId: 'c', message }, auth))
        .status,
    ).toBe(200);
    expect((await call(url, 'GET', `/sandbox/push/stats?login=${login}`)).body).toMatchObject({
      messages: 6,
      batches: 2,
    });
  });

  it('does not count a batch refused as 400', async () => {
    const { auth } = await readyAccount(url, { simulateDelivery: false });
    expect(
      (await call(url, 'POST', '/public/push/batch', { msisdn: numbers(1), subId: null, message }, auth)).status,
    ).toBe(400);
    expect(
      (await call(url, 'POST', '/public/push/batch', { msisdn: numbers(1), subId: 'ok', message }, auth)).status,
    ).toBe(200);
  });

  it("uses the account's own intervals, as changed by the test control", async () => {
    const { login, auth } = await readyAccount(url, { simulateDelivery: false, batchIntervalMs: 5_000 });
    expect(
      (await call(url, 'POST', '/public/push/batch', { msisdn: numbers(1), subId: 'i', message }, auth)).status,
    ).toBe(200);
    expect304(
      await call(url, 'POST', '/public/push/batch', { msisdn: numbers(1), subId: 'i', message }, auth),
      5,
      5_000,
    );
    await call(url, 'PATCH', `/sandbox/push/accounts/${login}`, { batchIntervalMs: 0 });
    expect(
      (await call(url, 'POST', '/public/push/batch', { msisdn: numbers(1), subId: 'i', message }, auth)).status,
    ).toBe(200);
  });

  it('lets only one of simultaneous single pushes with one subId to one number through', async () => {
    const { login, auth } = await readyAccount(url, { simulateDelivery: false });
    const body = { msisdn: '79997770000', subId: 'same', message };
    const results = await Promise.all([1, 2, 3].map(() => call(url, 'POST', '/public/push/single', body, auth)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 304, 304]);
    expect((await call(url, 'GET', `/sandbox/push/stats?login=${login}`)).body.messages).toBe(1);
  });

  it('lets only one of two simultaneous batches through', async () => {
    const { login, auth } = await readyAccount(url, { simulateDelivery: false });
    const results = await Promise.all(
      [1, 2, 3].map((i) =>
        call(
          url,
          'POST',
          '/public/push/batch',
          { msisdn: numbers(100, 79_900_000_000 + i * 1000), subId: 'r', message },
          auth,
        ),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 304, 304]);
    expect((await call(url, 'GET', `/sandbox/push/stats?login=${login}`)).body.batches).toBe(1);
  });
});

describe('the 304 rule with a compressed time scale', () => {
  it('divides the intervals by timeScale', async () => {
    const [pglite] = sandboxCases('timeScale');
    const sandbox = await pglite!.start({ timeScale: 1000, clock });
    try {
      const { auth } = await readyAccount(sandbox.url, { simulateDelivery: false });
      const body = { msisdn: '79991234567', subId: 'fast', message };
      expect((await call(sandbox.url, 'POST', '/public/push/single', body, auth)).status).toBe(200);
      const res = await call(sandbox.url, 'POST', '/public/push/single', body, auth);
      expect(res.status).toBe(304);
      expect(res.headers.get('x-retry-after-ms')).toBe('60');
      expect(res.headers.get('retry-after')).toBe('1');
      time.advance(60);
      expect((await call(sandbox.url, 'POST', '/public/push/single', body, auth)).status).toBe(200);
    } finally {
      await sandbox.close();
    }
  });
});
