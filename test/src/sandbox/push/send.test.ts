import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../../src/entries/sandbox.js';
import { call, message, numbers, readyAccount } from './harness.js';
import { sandboxCases } from '../../../support/sandbox.js';

describe.each(sandboxCases('Push sends'))('Push API sends on $name', ({ start }) => {
  let sandbox: RunningSandbox;
  let url: string;
  beforeAll(async () => {
    sandbox = await start({ timeScale: 1000 });
    url = sandbox.url;
  });
  afterAll(() => sandbox?.close());

  describe('validation', () => {
    it("answers the document's 400 body, word for word, for 10,001 numbers and a null subId", async () => {
      const { auth } = await readyAccount(url, { simulateDelivery: false });
      const res = await call(
        url,
        'POST',
        '/public/push/batch',
        { msisdn: numbers(10_001), subId: null, message },
        auth,
      );
      expect(res.status).toBe(400);
      expect(res.text).toBe(
        '{"status":"BAD_REQUEST","errors":["msisdn: size must be between 0 and 10000","subId: must not be null"]}',
      );
    });

    it('says "subId: must not be null" for a missing subId too, on single and batch', async () => {
      const { auth } = await readyAccount(url, { simulateDelivery: false });
      const batch = await call(url, 'POST', '/public/push/batch', { msisdn: [], message }, auth);
      expect(batch.body).toMatchObject({ status: 'BAD_REQUEST', errors: ['subId: must not be null'] });
      const single = await call(url, 'POST', '/public/push/single', { msisdn: '79991234567', message }, auth);
      expect(single.body).toMatchObject({ status: 'BAD_REQUEST', errors: ['subId: must not be null'] });
    });

    it('names each bad field of a single push and stores nothing', async () => {
      const { login, auth } = await readyAccount(url, { simulateDelivery: false });
      const res = await call(
        url,
        'POST',
        '/public/push/single',
        { msisdn: '+7 999', subId: 's', message: { title: '' }, extra: 1 },
        auth,
      );
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual(
        expect.arrayContaining([
          'msisdn: must be 11 to 15 digits, country code first, no +',
          'message.title: must not be empty',
          'extra: unknown field',
        ]),
      );
      expect((await call(url, 'GET', `/sandbox/push/stats?login=${login}`)).body.messages).toBe(0);
    });

    it('answers 400 to a body that is not JSON', async () => {
      const { auth } = await readyAccount(url);
      const res = await fetch(`${url}/public/push/single`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: '{"msisdn":',
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ status: 'BAD_REQUEST' });
    });
  });

  describe('single', () => {
    it('queues one message and tells where it is', async () => {
      const { auth } = await readyAccount(url, { simulateDelivery: false });
      const res = await call(
        url,
        'POST',
        '/public/push/single',
        { msisdn: '79991234567', subId: 'welcome', message: { ...message, deeplink: 'https://shop.example/sale' } },
        auth,
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ messageId: expect.stringMatching(/^pm_[0-9a-f]{24}$/), subId: 'welcome' });
      const state = await call(url, 'GET', `/public/push/${res.body.messageId}`, undefined, auth);
      expect(state.body).toEqual({
        messageId: res.body.messageId,
        subId: 'welcome',
        msisdn: '79991234567',
        status: 'QUEUED',
        updatedAt: expect.any(String),
      });
      expect(new Date(state.body.updatedAt).toISOString()).toBe(state.body.updatedAt);
    });

    it("answers 404 for an unknown message and for another account's", async () => {
      const a = await readyAccount(url, { simulateDelivery: false });
      const b = await readyAccount(url, { simulateDelivery: false });
      const sent = await call(
        url,
        'POST',
        '/public/push/single',
        { msisdn: '79991234567', subId: 's', message },
        a.auth,
      );
      const other = await call(url, 'GET', `/public/push/${sent.body.messageId}`, undefined, b.auth);
      expect(other).toMatchObject({
        status: 404,
        body: { status: 'NOT_FOUND', errors: ['messageId: no such message'] },
      });
      expect((await call(url, 'GET', '/public/push/pm_nope', undefined, a.auth)).status).toBe(404);
    });
  });

  describe('batch', () => {
    it('rejects invalid and repeated numbers one by one and queues the rest', async () => {
      const { login, auth } = await readyAccount(url, { simulateDelivery: false });
      const res = await call(
        url,
        'POST',
        '/public/push/batch',
        {
          msisdn: ['79990000001', '12345', '79990000002', '79990000001', '+79990000003', ''],
          subId: 'camp',
          message,
        },
        auth,
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ batchId: expect.stringMatching(/^pb_/), subId: 'camp', accepted: 2 });
      expect(res.body.rejected).toEqual([
        { msisdn: '12345', reason: 'INVALID_MSISDN' },
        { msisdn: '79990000001', reason: 'DUPLICATE' },
        { msisdn: '+79990000003', reason: 'INVALID_MSISDN' },
        { msisdn: '', reason: 'INVALID_MSISDN' },
      ]);
      expect(res.body.messages.map((m: { msisdn: string }) => m.msisdn)).toEqual(['79990000001', '79990000002']);
      const stats = await call(url, 'GET', `/sandbox/push/stats?login=${login}&subId=camp`);
      expect(stats.body).toMatchObject({
        messages: 2,
        distinctMsisdn: 2,
        duplicateMsisdn: 0,
        batches: 1,
        byStatus: { QUEUED: 2 },
      });
    });

    it('accepts 10,000 numbers in one call, each once, and an empty batch', async () => {
      const { login, auth } = await readyAccount(url, { simulateDelivery: false, batchIntervalMs: 0 });
      const res = await call(
        url,
        'POST',
        '/public/push/batch',
        { msisdn: numbers(10_000), subId: 'big', message },
        auth,
      );
      expect(res.status).toBe(200);
      expect(res.body.accepted).toBe(10_000);
      expect(new Set(res.body.messages.map((m: { messageId: string }) => m.messageId)).size).toBe(10_000);
      const empty = await call(url, 'POST', '/public/push/batch', { msisdn: [], subId: 'big', message }, auth);
      expect(empty.body).toMatchObject({ accepted: 0, rejected: [], messages: [] });
      const stats = await call(url, 'GET', `/sandbox/push/stats?login=${login}&subId=big`);
      expect(stats.body).toMatchObject({ messages: 10_000, distinctMsisdn: 10_000, duplicateMsisdn: 0, batches: 2 });
      const state = await call(url, 'GET', `/public/push/${res.body.messages[9_999].messageId}`, undefined, auth);
      expect(state.body).toMatchObject({ msisdn: numbers(10_000)[9_999], subId: 'big', status: 'QUEUED' });
    });
  });

  describe('Idempotency-Key (extension)', () => {
    it('answers the stored 200 again for the same key and body, sending nothing twice', async () => {
      const { login, auth } = await readyAccount(url, { simulateDelivery: false, batchIntervalMs: 0 });
      const body = { msisdn: numbers(50), subId: 'resume', message };
      const first = await call(url, 'POST', '/public/push/batch', body, {
        ...auth,
        'idempotency-key': 'campaign-1-batch-1',
      });
      const again = await call(url, 'POST', '/public/push/batch', body, {
        ...auth,
        'idempotency-key': 'campaign-1-batch-1',
      });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect((await call(url, 'GET', `/sandbox/push/stats?login=${login}&subId=resume`)).body).toMatchObject({
        messages: 50,
        batches: 1,
      });
    });

    it('replays even when the 304 rule would refuse a new call', async () => {
      const { auth } = await readyAccount(url, {
        simulateDelivery: false,
        batchIntervalMs: 86_400_000,
        singleIntervalMs: 86_400_000,
      });
      const body = { msisdn: '79991234567', subId: 'once', message };
      const first = await call(url, 'POST', '/public/push/single', body, { ...auth, 'idempotency-key': 'single-1' });
      const again = await call(url, 'POST', '/public/push/single', body, { ...auth, 'idempotency-key': 'single-1' });
      expect(again).toMatchObject({ status: 200, body: first.body });
      expect((await call(url, 'POST', '/public/push/single', body, auth)).status).toBe(304);
    });

    it('answers 409 IDEMPOTENCY_CONFLICT for the same key with another body, or on the other operation', async () => {
      const { auth } = await readyAccount(url, { simulateDelivery: false, batchIntervalMs: 0 });
      await call(
        url,
        'POST',
        '/public/push/batch',
        { msisdn: numbers(2), subId: 'k', message },
        { ...auth, 'idempotency-key': 'key-1' },
      );
      const other = await call(
        url,
        'POST',
        '/public/push/batch',
        { msisdn: numbers(3), subId: 'k', message },
        { ...auth, 'idempotency-key': 'key-1' },
      );
      expect(other).toMatchObject({ status: 409, body: { status: 'IDEMPOTENCY_CONFLICT' } });
      const single = await call(
        url,
        'POST',
        '/public/push/single',
        { msisdn: '79991234567', subId: 'k', message },
        { ...auth, 'idempotency-key': 'key-1' },
      );
      expect(single.status).toBe(409);
    });

    it("keeps keys apart per account, forgets a refused call's key, and checks the key's form", async () => {
      const a = await readyAccount(url, { simulateDelivery: false, batchIntervalMs: 86_400_000 });
      const b = await readyAccount(url, { simulateDelivery: false });
      const body = { msisdn: numbers(1), subId: 'k', message };
      expect(
        (await call(url, 'POST', '/public/push/batch', body, { ...a.auth, 'idempotency-key': 'shared' })).status,
      ).toBe(200);
      const forB = await call(url, 'POST', '/public/push/batch', body, { ...b.auth, 'idempotency-key': 'shared' });
      expect(forB.status).toBe(200);
      expect(forB.headers.get('idempotent-replayed')).toBeNull();
      // a's second batch is too early: refused, so its key is not kept and may be used with another body.
      expect(
        (
          await call(
            url,
            'POST',
            '/public/push/batch',
            { ...body, subId: 'x' },
            { ...a.auth, 'idempotency-key': 'fresh' },
          )
        ).status,
      ).toBe(304);
      await call(url, 'PATCH', `/sandbox/push/accounts/${a.login}`, { batchIntervalMs: 0 });
      expect(
        (
          await call(
            url,
            'POST',
            '/public/push/batch',
            { ...body, subId: 'y' },
            { ...a.auth, 'idempotency-key': 'fresh' },
          )
        ).status,
      ).toBe(200);
      const bad = await call(url, 'POST', '/public/push/batch', body, {
        ...a.auth,
        'idempotency-key': 'x'.repeat(129),
      });
      expect(bad.body).toMatchObject({
        status: 'BAD_REQUEST',
        errors: ['idempotency-key: must be 1 to 128 printable characters'],
      });
    });

    it('sends a batch once when the same key arrives twice at the same time', async () => {
      const { login, auth } = await readyAccount(url, { simulateDelivery: false, batchIntervalMs: 0 });
      const body = { msisdn: numbers(500), subId: 'race', message };
      const [x, y] = await Promise.all([
        call(url, 'POST', '/public/push/batch', body, { ...auth, 'idempotency-key': 'race-1' }),
        call(url, 'POST', '/public/push/batch', body, { ...auth, 'idempotency-key': 'race-1' }),
      ]);
      expect([x.status, y.status]).toEqual([200, 200]);
      expect(x.body.batchId).toBe(y.body.batchId);
      expect((await call(url, 'GET', `/sandbox/push/stats?login=${login}&subId=race`)).body).toMatchObject({
        messages: 500,
        batches: 1,
      });
    });
  });
});
