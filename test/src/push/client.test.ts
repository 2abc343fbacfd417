import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPushClient, PushError, type PushClient } from '../../../src/entries/push.js';
import { startFlakyProxy } from './flaky-proxy.js';
import { startPushSandbox, type PushSandbox } from './sandbox.js';

const message = { title: 'Sale', text: 'Twenty percent off today' };
const NEW_PASSWORD = 'a-new-password-0123';

async function failure(promise: Promise<unknown>): Promise<PushError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PushError) return error;
    throw error;
  }
  throw new Error('expected a PushError');
}

describe('createPushClient over HTTP against the sandbox', () => {
  let sandbox: PushSandbox;
  let client: PushClient;
  let login: string;

  // The sandbox and the client share a clock the test moves forward, so a 304 is met and waited out
  // without timing anything: no real delay between two calls reaches the 10-minute interval.
  let skewMs = 0;
  const clock = () => Date.now() + skewMs;

  beforeAll(async () => {
    sandbox = await startPushSandbox({ clock });
    const account = await sandbox.createAccount({
      singleIntervalMs: 600_000,
      batchIntervalMs: 0,
      simulateDelivery: false,
    });
    login = account.login;
    client = createPushClient({ url: sandbox.url, login, password: account.password, retryBaseMs: 10, clock });
    // Before the reset every call but the reset is refused (document section 3).
    const refused = await failure(client.single({ msisdn: '79990000001', subId: 'first', message }));
    expect({ code: refused.code, httpStatus: refused.httpStatus, errors: refused.errors }).toEqual({
      code: 'UNAUTHORIZED',
      httpStatus: 401,
      errors: ['Invalid authorization token'],
    });
    await client.resetPassword(NEW_PASSWORD);
  }, 180_000); // PGlite start-up: stretched many times over on a loaded machine
  afterAll(() => sandbox?.close());

  it('sends with the new password after a reset, and the initial one no longer works', async () => {
    expect(await client.single({ msisdn: '79990000002', subId: 'after-reset', message })).toMatchObject({
      subId: 'after-reset',
      messageId: expect.any(String),
    });
    const stale = createPushClient({ url: sandbox.url, login, password: 'the-initial-one-is-gone' });
    expect((await failure(stale.message('pm_x'))).code).toBe('UNAUTHORIZED');
  });

  it('sends a single push and reads its state back', async () => {
    const { messageId } = await client.single({ msisdn: '79990000003', subId: 'state', message });
    expect(await client.message(messageId)).toMatchObject({
      messageId,
      subId: 'state',
      msisdn: '79990000003',
      status: 'QUEUED',
    });
    const missing = await failure(client.message('pm_000000000000000000000000'));
    expect({ code: missing.code, httpStatus: missing.httpStatus }).toEqual({ code: 'NOT_FOUND', httpStatus: 404 });
  });

  it('sends a batch and gets invalid and repeated numbers back one by one', async () => {
    const answer = await client.batch({
      msisdn: ['79990000010', '12', '79990000011', '79990000010'],
      subId: 'batch',
      message,
    });
    expect(answer).toMatchObject({
      subId: 'batch',
      accepted: 2,
      rejected: [
        { msisdn: '12', reason: 'INVALID_MSISDN' },
        { msisdn: '79990000010', reason: 'DUPLICATE' },
      ],
    });
    expect(answer.messages?.map((m) => m.msisdn)).toEqual(['79990000010', '79990000011']);
  });

  it(
    'raises TOO_EARLY with retryAt from Retry-After on a 304, and the ' + 'same call succeeds once waited out',
    async () => {
      const request = { msisdn: '79990000020', subId: 'too-early', message };
      await client.single(request);
      const before = clock();
      const early = await failure(client.single(request));
      expect({ code: early.code, httpStatus: early.httpStatus }).toEqual({ code: 'TOO_EARLY', httpStatus: 304 });
      expect(early.retryAt).toBeGreaterThan(before);
      expect(early.retryAt).toBeLessThanOrEqual(before + 600_000 + 1_000);
      skewMs += early.retryAt! - clock() + 1; // waited out, on the shared clock
      expect(await client.single(request)).toMatchObject({ subId: 'too-early' });
    },
  );

  it("refuses a bad body before sending, with the server's <field>: <message> lines", async () => {
    const tooMany = Array.from({ length: 10_001 }, () => '79990000030');
    const error = await failure(client.batch({ msisdn: tooMany, subId: null as unknown as string, message }));
    expect({ code: error.code, errors: error.errors, httpStatus: error.httpStatus }).toEqual({
      code: 'BAD_REQUEST',
      errors: ['msisdn: size must be between 0 and 10000', 'subId: must not be null'],
      httpStatus: undefined,
    });
    expect(
      (
        await failure(
          client.single({ msisdn: '79990000030', subId: 's', message }, { idempotencyKey: 'spaces are not allowed' }),
        )
      ).code,
    ).toBe('BAD_REQUEST');
  });

  it(
    'answers a repeated Idempotency-Key with the stored answer, and the key with another body with ' +
      'IDEMPOTENCY_CONFLICT',
    async () => {
      const request = { msisdn: ['79990000040', '79990000041'], subId: 'idem', message };
      const first = await client.batch(request, { idempotencyKey: 'idem-1' });
      expect(await client.batch(request, { idempotencyKey: 'idem-1' })).toEqual(first);
      const conflict = await failure(
        client.batch({ ...request, msisdn: ['79990000042'] }, { idempotencyKey: 'idem-1' }),
      );
      expect({ code: conflict.code, httpStatus: conflict.httpStatus }).toEqual({
        code: 'IDEMPOTENCY_CONFLICT',
        httpStatus: 409,
      });
      expect((await sandbox.stats(login, 'idem')).messages).toBe(2);
    },
  );

  it('retries a send whose answer was lost only when it has an Idempotency-Key, and then sends it once', async () => {
    const proxy = await startFlakyProxy(sandbox.url, 2);
    try {
      const viaProxy = createPushClient({ url: proxy.url, login, password: NEW_PASSWORD, retries: 3, retryBaseMs: 10 });
      const answer = await viaProxy.batch(
        { msisdn: ['79990000050', '79990000051'], subId: 'lost-answer', message },
        { idempotencyKey: 'lost-1' },
      );
      expect(answer.accepted).toBe(2);
      expect(proxy.forwarded()).toBe(3); // two lost answers, then the stored one
      expect(await sandbox.stats(login, 'lost-answer')).toMatchObject({ messages: 2, duplicateMsisdn: 0, batches: 1 });

      const withoutKey = await startFlakyProxy(sandbox.url, 1);
      try {
        const unsafe = createPushClient({
          url: withoutKey.url,
          login,
          password: NEW_PASSWORD,
          retries: 3,
          retryBaseMs: 10,
        });
        const error = await failure(unsafe.batch({ msisdn: ['79990000052'], subId: 'no-key', message }));
        expect({ code: error.code, attempts: error.attempts }).toEqual({ code: 'PUSH_NETWORK', attempts: 1 });
        expect(withoutKey.forwarded()).toBe(1);
      } finally {
        await withoutKey.close();
      }
    } finally {
      await proxy.close();
    }
  });

  it('gives NETWORK when nothing listens, after retrying a safe call', async () => {
    const dead = createPushClient({
      url: 'http://127.0.0.1:1',
      login,
      password: NEW_PASSWORD,
      retries: 2,
      retryBaseMs: 1,
    });
    const error = await failure(dead.message('pm_x'));
    expect({ code: error.code, attempts: error.attempts }).toEqual({ code: 'PUSH_NETWORK', attempts: 3 });
    // Names the host it could not reach and why, not just undici's "fetch failed".
    expect(error.message).toMatch(/: no answer from 127\.0\.0\.1:1 \(.+\)$/);
    expect(error.message).not.toContain(NEW_PASSWORD);
  });

  it('refuses bad options without echoing the password', () => {
    let error: unknown;
    try {
      createPushClient({ url: 'ftp://x', login: 'a:b', password: 'secret-password-value' });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'CONFIG_INVALID' });
    expect((error as { issues: string[] }).issues).toEqual([
      'url: must be an http:// or https:// URL',
      'login: must not hold ":" or spaces',
    ]);
    expect((error as Error).message).not.toContain('secret-password-value');
  });
});
