import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/entries/sandbox.js';
import { FailureLimiter } from '../../../src/guard/index.js';
import { basicAuthHeader } from '../../../src/net/basic-auth.js';
import { testClock } from '../../support/clock.js';
import { ADDRESSES, requestFrom } from '../../support/from-address.js';
import { startTestSandbox } from '../../support/sandbox.js';

/** The proxy in front of the sandbox: one loopback address; the others act as clients reaching it directly. */
const PROXY = ADDRESSES.honest;

describe('sandbox trustedProxies', () => {
  const time = testClock();
  let running: RunningSandbox;

  beforeAll(async () => {
    running = await startTestSandbox({
      clock: time.now,
      trustedProxies: [`${PROXY}/32`],
      bruteForce: new FailureLimiter({
        perAddress: { maxFailures: 2, windowMs: 60_000, lockoutMs: 300_000 },
        perCredential: false,
        clock: time.now,
      }),
    });
  }, 120_000);

  afterAll(async () => {
    await running?.close();
  });

  const wrongLogin = (localAddress: string, forwardedFor: string) =>
    requestFrom(`${running.url}/public/push/no-such-message`, {
      headers: {
        authorization: basicAuthHeader('nobody-here', 'wrong-password-0000'),
        'x-forwarded-for': forwardedFor,
      },
      localAddress,
    });

  it('locks out the client the trusted proxy names, not every client behind the proxy', async () => {
    for (let i = 0; i < 2; i++) expect((await wrongLogin(PROXY, '203.0.113.7')).status).toBe(401);
    expect((await wrongLogin(PROXY, '203.0.113.7')).status).toBe(429);
    expect((await wrongLogin(PROXY, '203.0.113.8')).status).toBe(401);
  });

  it('counts an untrusted peer by its own address, whatever X-Forwarded-For it forges', async () => {
    expect((await wrongLogin(ADDRESSES.attacker, '198.51.100.1')).status).toBe(401);
    expect((await wrongLogin(ADDRESSES.attacker, '198.51.100.2')).status).toBe(401);
    expect((await wrongLogin(ADDRESSES.attacker, '198.51.100.3')).status).toBe(429);
  });

  it('refuses an entry that is no address or CIDR', async () => {
    await expect(startTestSandbox({ port: 0, trustedProxies: ['not-an-address'] })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
    });
  });
});
