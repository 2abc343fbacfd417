import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuthHeader } from '../../../src/net/basic-auth.js';
import { FailureLimiter } from '../../../src/guard/index.js';
import { createVerifier } from '../../../src/entries/index.js';
import type { RunningSandbox } from '../../../src/entries/sandbox.js';
import { startTestSandbox } from '../../support/sandbox.js';
import { BASE_CONFIG } from '../../support/fixtures.js';
import { testClock } from '../../support/clock.js';
import { ADDRESSES, requestFrom } from '../../support/from-address.js';

const OTHER_KEY = 'ff'.repeat(32);
const NEW_PASSWORD = 'a-new-password-for-lockout-tests';
const WRONG = 'guessed-password-5e884898da';

describe('sandbox brute-force limits (Push Basic auth, Pay tokens)', () => {
  const time = testClock();
  const lines: string[] = [];
  const logger = pino(
    { level: 'info' },
    {
      write: (line: string) => {
        lines.push(line);
      },
    },
  );
  const limiter = new FailureLimiter({
    perAddress: { maxFailures: 8, windowMs: 60_000, lockoutMs: 300_000 },
    perCredential: { maxFailures: 3, windowMs: 60_000, lockoutMs: 300_000 },
    clock: time.now,
  });
  let running: RunningSandbox;

  beforeAll(async () => {
    running = await startTestSandbox({ clock: time.now, logger, bruteForce: limiter });
  }, 120_000);

  afterAll(async () => {
    await running?.close();
  });

  const lockoutLines = () =>
    lines.filter((l) => l.includes('locked out')).map((l) => JSON.parse(l) as Record<string, unknown>);

  describe('Push Basic auth', () => {
    const login = `lockout-${process.pid}`;
    let initial: string;
    const pushGet = (password: string, localAddress: string) =>
      requestFrom(`${running.url}/public/push/no-such-message`, {
        headers: { authorization: basicAuthHeader(login, password) },
        localAddress,
      });

    it(
      'locks the login out for new addresses after 3 wrong passwords, and ' + 'the honest client keeps working',
      async () => {
        const created = await requestFrom(`${running.url}/sandbox/push/accounts`, {
          method: 'POST',
          body: JSON.stringify({ login, partner: 'partner-1' }),
          localAddress: ADDRESSES.honest,
        });
        expect(created.status).toBe(200);
        initial = created.body.password as string;
        const reset = await requestFrom(`${running.url}/public/user/reset-password`, {
          method: 'PUT',
          body: JSON.stringify({ password: NEW_PASSWORD }),
          headers: { authorization: basicAuthHeader(login, initial) },
          localAddress: ADDRESSES.honest,
        });
        expect(reset.status).toBe(200);

        for (let i = 0; i < 3; i++) expect((await pushGet(WRONG, ADDRESSES.attacker)).status).toBe(401);
        const locked = await pushGet(NEW_PASSWORD, ADDRESSES.attacker);
        expect(locked.status).toBe(429);
        expect(locked.headers['retry-after']).toBe('300');
        expect(locked.body).toMatchObject({ status: 'TOO_MANY_REQUESTS' });
        // Authenticated (404 for the unknown message), not refused: the honest client's address is trusted for the
        // login.
        expect((await pushGet(NEW_PASSWORD, ADDRESSES.honest)).status).toBe(404);
        expect((await pushGet(NEW_PASSWORD, ADDRESSES.newcomer)).status).toBe(429);

        expect(lockoutLines()).toEqual([
          expect.objectContaining({
            realm: 'push',
            scope: 'credential',
            credential: `push:${login}`,
            remoteAddress: ADDRESSES.attacker,
          }),
        ]);
        const log = lines.join('\n');
        for (const secret of [WRONG, NEW_PASSWORD, initial]) expect(log).not.toContain(secret);
      },
    );

    it('lets new addresses in again after the cool-down', async () => {
      time.advance(300_000);
      expect((await pushGet(NEW_PASSWORD, ADDRESSES.newcomer)).status).toBe(404);
    });
  });

  describe('Pay tokens', () => {
    const partnerId = `lockout-partner-${process.pid}`;
    const body = JSON.stringify({ cardSession: 'AB12CD34' });
    const signer = (key: string) => createVerifier({ ...BASE_CONFIG, key, partnerId, clock: time.now, replay: false });
    const right = signer(BASE_CONFIG.key);
    const forged = signer(OTHER_KEY);
    const availability = (token: string, localAddress: string) =>
      requestFrom(`${running.url}/availability-info`, {
        method: 'POST',
        body,
        headers: { 'x-wallet-token': token },
        localAddress,
      });

    beforeAll(async () => {
      const created = await requestFrom(`${running.url}/sandbox/partners`, {
        method: 'POST',
        body: JSON.stringify({ partnerId, key: BASE_CONFIG.key }),
        localAddress: ADDRESSES.honest,
      });
      expect(created.status).toBe(200);
    });

    it('answers 429 with Retry-After after 3 refused tokens of a partner; its cash desk keeps working', async () => {
      const before = limiter.lockouts;
      // The partner's own cash desk has been working from its address.
      expect((await availability(right.getToken(body), ADDRESSES.honest)).status).not.toBe(401);
      for (let i = 0; i < 3; i++) expect((await availability(forged.getToken(body), ADDRESSES.other)).status).toBe(401);
      const locked = await availability(right.getToken(body), ADDRESSES.other);
      expect(locked.status).toBe(429);
      expect(locked.headers['retry-after']).toBe('300');
      expect((await availability(right.getToken(body), ADDRESSES.honest)).status).not.toBe(401);
      expect(limiter.lockouts).toBe(before + 1);
      expect(lockoutLines().at(-1)).toMatchObject({
        realm: 'pay',
        scope: 'credential',
        credential: `pay:${partnerId}`,
        remoteAddress: ADDRESSES.other,
      });
    });

    it('locks out an address sending tokens of made-up partners, and only that address', async () => {
      time.advance(300_000); // the earlier lockouts are over
      for (let i = 0; i < 8; i++) {
        const stranger = createVerifier({ ...BASE_CONFIG, partnerId: `nobody-${i}`, clock: time.now, replay: false });
        expect((await availability(stranger.getToken(body), ADDRESSES.newcomer)).status).toBe(401);
      }
      const locked = await availability(right.getToken(body), ADDRESSES.newcomer);
      expect(locked.status).toBe(429);
      expect(lockoutLines().at(-1)).toMatchObject({
        realm: 'pay',
        scope: 'address',
        remoteAddress: ADDRESSES.newcomer,
      });
      expect((await availability(right.getToken(body), ADDRESSES.honest)).status).not.toBe(401);
      time.advance(300_000);
      expect((await availability(right.getToken(body), ADDRESSES.newcomer)).status).not.toBe(429);
    });
  });
});
