import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoConfig } from '../../../../src/demo.js';
import type { RunningSandbox } from '../../../../src/entries/sandbox.js';
import {
  basic,
  call,
  freshLogin,
  message,
  NEW_PASSWORD,
  numbers,
  readyAccount,
  receiver,
  eventually,
} from './harness.js';
import { sandboxCases } from '../../../support/sandbox.js';

describe.each(sandboxCases('Push test controls'))('Push test controls on $name', ({ start }) => {
  let sandbox: RunningSandbox;
  let url: string;
  beforeAll(async () => {
    sandbox = await start({ timeScale: 100_000, demo: true });
    url = sandbox.url;
  });
  afterAll(() => sandbox?.close());

  describe('accounts', () => {
    it('creates an account with a random initial password and a whsec_ secret, shown once', async () => {
      const login = freshLogin();
      const res = await call(url, 'POST', '/sandbox/push/accounts', {
        login,
        partner: 'shop-42',
        callbackUrl: 'https://merchant.example/cb',
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        login,
        partner: 'shop-42',
        callbackUrl: 'https://merchant.example/cb',
        singleIntervalMs: 60_000,
        batchIntervalMs: 1_000,
        simulateDelivery: true,
        passwordReset: false,
        createdAt: expect.any(String),
        password: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/),
        callbackSecret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      });
      const shown = await call(url, 'GET', `/sandbox/push/accounts/${login}`);
      expect(shown.text).not.toContain(res.body.password);
      expect(shown.text).not.toContain(res.body.callbackSecret);
    });

    it('takes a given password and secret, and answers 409 ACCOUNT_EXISTS for a taken login', async () => {
      const login = freshLogin();
      const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
      const res = await call(url, 'POST', '/sandbox/push/accounts', {
        login,
        partner: 'p',
        password: 'given-password-1',
        callbackSecret: secret,
      });
      expect(res.body).toMatchObject({ password: 'given-password-1', callbackSecret: secret });
      const again = await call(url, 'POST', '/sandbox/push/accounts', {
        login,
        partner: 'other',
        password: 'another-password',
      });
      expect(again).toMatchObject({
        status: 409,
        body: { status: 'ACCOUNT_EXISTS', errors: [`login: ${login} exists`] },
      });
      expect(again.text).not.toContain('another-password');
      expect(
        (
          await call(
            url,
            'PUT',
            '/public/user/reset-password',
            { password: NEW_PASSWORD },
            basic(login, 'given-password-1'),
          )
        ).status,
      ).toBe(200);
    });

    it('names every bad field of a creation', async () => {
      const res = await call(url, 'POST', '/sandbox/push/accounts', {
        login: 'a:b',
        partner: '',
        callbackUrl: 'ftp://x',
        password: 'short',
        callbackSecret: 'nope',
        batchIntervalMs: -1,
      });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        'login: must be 1 to 64 of [A-Za-z0-9._@-], starting with a letter or digit',
        'partner: must not be empty',
        'callbackUrl: must be an http(s) URL',
        'password: must be 12 to 128 characters',
        'callbackSecret: must be whsec_ followed by 24 to 64 bytes in base64',
        'batchIntervalMs: must be 0 to 86400000',
      ]);
      expect(res.text).not.toContain('short');
    });

    it('changes the settings with PATCH, removes the callback URL with null, and 404s an unknown login', async () => {
      const login = freshLogin();
      await call(url, 'POST', '/sandbox/push/accounts', { login, partner: 'p', callbackUrl: 'http://127.0.0.1:1/cb' });
      const patched = await call(url, 'PATCH', `/sandbox/push/accounts/${login}`, {
        singleIntervalMs: 5,
        batchIntervalMs: 6,
        simulateDelivery: false,
      });
      expect(patched.body).toMatchObject({
        callbackUrl: 'http://127.0.0.1:1/cb',
        singleIntervalMs: 5,
        batchIntervalMs: 6,
        simulateDelivery: false,
      });
      expect(
        (await call(url, 'PATCH', `/sandbox/push/accounts/${login}`, { callbackUrl: null })).body.callbackUrl,
      ).toBeNull();
      expect((await call(url, 'PATCH', '/sandbox/push/accounts/nobody-here', { batchIntervalMs: 1 })).status).toBe(404);
      expect((await call(url, 'GET', '/sandbox/push/accounts/nobody-here')).body).toMatchObject({
        status: 'NOT_FOUND',
        errors: ['login: no such account'],
      });
    });

    it('has the demo account of demoConfig.push with --demo, in the initial-password state', async () => {
      const { login, password } = demoConfig.push;
      expect((await call(url, 'GET', `/sandbox/push/accounts/${login}`)).body).toMatchObject({
        login,
        partner: 'demo-partner',
        passwordReset: false,
      });
      const early = await call(
        url,
        'POST',
        '/public/push/single',
        { msisdn: '79991234567', subId: 'd', message },
        basic(login, password),
      );
      expect(early.status).toBe(401);
      expect(sandbox.sandbox.banner.join('\n')).toContain(login);
    });
  });

  describe('stats', () => {
    it('counts messages, distinct numbers, duplicates, sends and statuses per subId', async () => {
      const { login, auth } = await readyAccount(url, { simulateDelivery: false, batchIntervalMs: 0 });
      await call(url, 'POST', '/public/push/batch', { msisdn: numbers(5), subId: 'c1', message }, auth);
      await call(url, 'POST', '/public/push/batch', { msisdn: numbers(3), subId: 'c1', message }, auth);
      await call(url, 'POST', '/public/push/single', { msisdn: '79990000000', subId: 'c2', message }, auth);
      expect((await call(url, 'GET', `/sandbox/push/stats?login=${login}&subId=c1`)).body).toEqual({
        messages: 8,
        distinctMsisdn: 5,
        duplicateMsisdn: 3,
        batches: 2,
        singles: 0,
        byStatus: { QUEUED: 8, SENT: 0, DELIVERED: 0, READ: 0, FAILED: 0 },
      });
      expect((await call(url, 'GET', `/sandbox/push/stats?login=${login}`)).body).toMatchObject({
        messages: 9,
        distinctMsisdn: 5,
        batches: 2,
        singles: 1,
      });
      expect((await call(url, 'GET', '/sandbox/push/stats?login=nobody-here')).status).toBe(404);
      expect((await call(url, 'GET', '/sandbox/push/stats')).status).toBe(400);
    });
  });

  describe('deliveries', () => {
    it("lists an account's failed callbacks with every attempt, and redelivers one on request", async () => {
      let answer = 500;
      const hook = await receiver(() => answer);
      try {
        const { login, auth } = await readyAccount(url, { callbackUrl: hook.url });
        await call(url, 'POST', '/public/push/single', { msisdn: '79991112233', subId: 'cb', message }, auth);
        // timeScale 100,000: the 8 attempts of RETRY_SCHEDULE_MS (about 27.6 h) take about 1 s.
        const failed = await eventually(
          async () => {
            const [d] = (await call(url, 'GET', `/sandbox/push/deliveries?login=${login}`)).body.deliveries;
            return d?.status === 'failed' ? d : undefined;
          },
          15_000,
          'the 8th attempt',
        );
        expect(failed).toMatchObject({
          attempts: 8,
          lastError: 'HTTP 500',
          nextAttemptAt: null,
          eventType: 'push.delivered',
        });
        expect(failed.history.map((h: { attempt: number; httpStatus: number }) => [h.attempt, h.httpStatus])).toEqual(
          [1, 2, 3, 4, 5, 6, 7, 8].map((n) => [n, 500]),
        );
        expect(hook.received).toHaveLength(8);
        expect(new Set(hook.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([failed.id]));
        answer = 200;
        const redelivered = await call(url, 'POST', `/sandbox/push/deliveries/${failed.id}/redeliver`);
        expect(redelivered.status).toBe(200);
        expect(redelivered.body.id).toBe(failed.id);
        await eventually(async () => {
          const [d] = (await call(url, 'GET', `/sandbox/push/deliveries?login=${login}`)).body.deliveries;
          return d?.status === 'delivered' ? d : undefined;
        });
        expect(hook.received).toHaveLength(9);
        expect((await call(url, 'POST', `/sandbox/push/deliveries/${failed.id}/redeliver`)).status).toBe(404);
        expect((await call(url, 'POST', '/sandbox/push/deliveries/msg_none/redeliver')).body.status).toBe('NOT_FOUND');
      } finally {
        await hook.close();
      }
    });
  });

  it("puts the Push API, the test controls and the simulator in the sandbox's OpenAPI document", async () => {
    const doc = (await call(url, 'GET', '/openapi.json')).body;
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/public/user/reset-password',
        '/public/push/single',
        '/public/push/batch',
        '/public/push/{messageId}',
        '/sandbox/push/accounts',
        '/sandbox/push/accounts/{login}',
        '/sandbox/push/phones/{msisdn}',
        '/sandbox/push/stats',
        '/sandbox/push/deliveries',
        '/sandbox/push/deliveries/{id}/redeliver',
        '/sandbox/app/inbox/{msisdn}',
        '/sandbox/app/inbox/{msisdn}/messages/{messageId}/read',
      ]),
    );
    expect(doc.components.securitySchemes.pushBasic).toMatchObject({ type: 'http', scheme: 'basic' });
    expect(doc.paths['/public/push/batch'].post.responses['304'].headers).toHaveProperty('Retry-After');
  });
});
