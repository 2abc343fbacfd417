import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHttp } from '../../../adapters/http-server/serve.js';
import type { RunningSandbox, Sandbox } from '../../../src/entries/sandbox.js';
import { resolveSandboxOptions } from '../../../src/sandbox/options.js';
import { attackSuite } from '../../support/attack-suite.js';
import { hugeBody } from '../../support/attacks.js';
import { startTestSandbox } from '../../support/sandbox.js';
import { DATABASE_URL } from '../../support/services.js';

/**
 * A token that passes every check made before the body (shape, header, age, the demo's only partner) unless `header`
 * says otherwise; its signature is wrong.
 */
function plausibleToken(header: Record<string, unknown> = {}): string {
  const fields = {
    alg: 'HS256',
    b64: false,
    crit: ['b64'],
    iat: Math.floor(Date.now() / 1000),
    jti: `attack${Date.now()}${Math.random().toString(36).slice(2)}`.slice(0, 40),
    ...header,
  };
  return `${Buffer.from(JSON.stringify(fields)).toString('base64url')}..${Buffer.alloc(32, 7).toString('base64url')}`;
}

describe('sandbox under attack', () => {
  // One sandbox (PostgreSQL when DATABASE_URL is set: PGlite starts slowly on a busy machine), a listener per limits.
  let running: RunningSandbox;
  let sandbox: Sandbox;
  beforeAll(async () => {
    running = await startTestSandbox({
      demo: true,
      bodyLimitBytes: 64 * 1024,
      database: DATABASE_URL ? 'postgres' : 'pglite',
    });
    sandbox = running.sandbox;
  }, 120_000);
  afterAll(() => running?.close());

  // The limits pass through the sandbox's options, as startSandbox takes them.
  attackSuite((limits) => serveHttp(sandbox.app, { limits: resolveSandboxOptions({ limits }).limits }), {
    path: '/checkout',
    get headers() {
      return { 'X-Wallet-Token': plausibleToken() };
    },
    bodyLimitBytes: 64 * 1024,
  });

  describe('the wallet token, checked before the body is read', () => {
    let url: string;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ url, close } = await serveHttp(sandbox.app));
    });
    afterAll(async () => {
      await close?.();
    });

    // A chunked body that would run far past the 64 KiB limit: read first, it would get 413; checked first, the token
    // gets 401.
    it.each([
      ['no token', undefined],
      ['a malformed token', 'not.a.token'],
      ['a token of another algorithm', plausibleToken({ alg: 'none' })],
      ['a token too old', plausibleToken({ iat: Math.floor(Date.now() / 1000) - 3_600 })],
      ['a token of an unknown partner', plausibleToken({ kid: 'no-such-partner' })],
    ])('refuses %s with 401 while the body is still arriving', async (_, token) => {
      const outcome = await hugeBody(
        url,
        '/checkout',
        token === undefined ? {} : { 'X-Wallet-Token': token },
        64 * 1024 * 1024,
        { chunked: true },
      );
      expect(outcome.statusLine).toMatch(/^HTTP\/1\.1 401 /);
      expect(outcome.received).toContain('TOKEN_INVALID');
    });

    it('still reads the body of a plausible token, over the limit 413', async () => {
      const outcome = await hugeBody(url, '/checkout', { 'X-Wallet-Token': plausibleToken() }, 64 * 1024 * 1024, {
        chunked: true,
      });
      expect(outcome.statusLine).toMatch(/^HTTP\/1\.1 413 /);
    });
  });
});
