import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { serveHttp } from '../../../adapters/http-server/serve.js';
import { basicAuthHeader } from '../../../src/net/basic-auth.js';
import { FailureLimiter } from '../../../src/guard/index.js';
import { createLoyaltyServer, type LoyaltyHandlers } from '../../../src/entries/loyalty.js';
import { testClock } from '../../support/clock.js';
import { ADDRESSES, requestFrom } from '../../support/from-address.js';

const LOGIN = 'wallet-service';
const PASSWORD = 'the-right-password-7f3a9c';
const WRONG = 'guessed-password-d41d8cd9';

/** Handlers answering one route: the tests are about auth, which runs before any handler. */
const handlers = {
  listCategories: async () => ({ groups: [] }),
} as unknown as LoyaltyHandlers;

async function startLoyalty() {
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
    perAddress: { maxFailures: 6, windowMs: 60_000, lockoutMs: 300_000 },
    perCredential: { maxFailures: 3, windowMs: 60_000, lockoutMs: 300_000 },
    clock: time.now,
  });
  const app = createLoyaltyServer({
    handlers,
    auth: { login: LOGIN, password: PASSWORD },
    logger,
    bruteForce: limiter,
  });
  const http = await serveHttp(app);
  const get = (password: string, localAddress: string, login = LOGIN) =>
    requestFrom(`${http.url}/v1/card/4000/categories`, {
      headers: { authorization: basicAuthHeader(login, password) },
      localAddress,
    });
  return { time, lines, limiter, get, url: http.url, close: () => http.close() };
}

let server: Awaited<ReturnType<typeof startLoyalty>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('Loyalty Basic auth brute-force limit', () => {
  it(
    'answers 429 with Retry-After after too many wrong passwords for a login, and logs one line without the ' +
      'password',
    async () => {
      server = await startLoyalty();
      for (let i = 0; i < 3; i++) expect((await server.get(WRONG, ADDRESSES.attacker)).status).toBe(401);
      const locked = await server.get(WRONG, ADDRESSES.attacker);
      expect(locked.status).toBe(429);
      expect(locked.headers['retry-after']).toBe('300');
      expect(locked.body).toMatchObject({
        status: 'TOO_MANY_REQUESTS',
        errors: ['Too many failed authentications: retry after 300 s'],
      });
      // The right password is not even checked for this caller.
      expect((await server.get(PASSWORD, ADDRESSES.attacker)).status).toBe(429);
      const lockouts = server.lines.filter((l) => l.includes('locked out'));
      expect(lockouts).toHaveLength(1);
      expect(JSON.parse(lockouts[0]!)).toMatchObject({
        realm: 'loyalty',
        scope: 'credential',
        credential: LOGIN,
        remoteAddress: ADDRESSES.attacker,
      });
      const log = server.lines.join('\n');
      expect(log).not.toContain(WRONG);
      expect(log).not.toContain(PASSWORD);
      expect(server.limiter.lockouts).toBe(1);
    },
  );

  it(
    'keeps letting the right password in from an address where it worked, ' + 'while the login is locked for new ones',
    async () => {
      server = await startLoyalty();
      expect((await server.get(PASSWORD, ADDRESSES.honest)).status).toBe(200);
      for (let i = 0; i < 3; i++) await server.get(WRONG, ADDRESSES.attacker);
      expect((await server.get(PASSWORD, ADDRESSES.honest)).status).toBe(200);
      expect((await server.get(PASSWORD, ADDRESSES.newcomer)).status).toBe(429);
      // After the cool-down the new address gets in too.
      server.time.advance(300_000);
      expect((await server.get(PASSWORD, ADDRESSES.newcomer)).status).toBe(200);
    },
  );

  it('locks out an address guessing many logins, and only that address', async () => {
    server = await startLoyalty();
    for (let i = 0; i < 6; i++) expect((await server.get(WRONG, ADDRESSES.attacker, `login-${i}`)).status).toBe(401);
    const locked = await server.get(PASSWORD, ADDRESSES.attacker);
    expect(locked.status).toBe(429);
    expect(JSON.parse(server.lines.find((l) => l.includes('locked out'))!)).toMatchObject({
      scope: 'address',
      remoteAddress: ADDRESSES.attacker,
    });
    expect((await server.get(PASSWORD, ADDRESSES.other)).status).toBe(200);
    server.time.advance(299_000);
    expect((await server.get(PASSWORD, ADDRESSES.attacker)).headers['retry-after']).toBe('1');
    server.time.advance(1_000);
    expect((await server.get(PASSWORD, ADDRESSES.attacker)).status).toBe(200);
  });

  it('counts a missing or unreadable Authorization header against the address', async () => {
    server = await startLoyalty();
    const url = `${server.url}/v1/card/4000/categories`;
    for (let i = 0; i < 3; i++) expect((await requestFrom(url, { localAddress: ADDRESSES.attacker })).status).toBe(401);
    for (let i = 0; i < 3; i++)
      expect(
        (await requestFrom(url, { headers: { authorization: 'Basic !!!' }, localAddress: ADDRESSES.attacker })).status,
      ).toBe(401);
    expect((await server.get(PASSWORD, ADDRESSES.attacker)).status).toBe(429);
  });
});
