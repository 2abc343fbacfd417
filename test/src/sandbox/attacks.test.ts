import { afterAll, beforeAll, describe } from 'vitest';
import { serveHttp } from '../../../adapters/http/serve.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox/app.js';
import { resolveSandboxOptions } from '../../../src/sandbox/options.js';
import { attackSuite } from '../../support/attack-suite.js';
import { uniqueSchema } from '../../support/databases.js';
import { DATABASE_URL } from '../../support/services.js';

/** A token that passes every check made before the body (shape, header, age, the demo's only partner); its signature is wrong. */
function plausibleToken(): string {
  const header = { alg: 'HS256', b64: false, crit: ['b64'], iat: Math.floor(Date.now() / 1000), jti: `attack${Date.now()}${Math.random().toString(36).slice(2)}`.slice(0, 40) };
  return `${Buffer.from(JSON.stringify(header)).toString('base64url')}..${Buffer.alloc(32, 7).toString('base64url')}`;
}

describe('sandbox under attack', () => {
  // One sandbox (PostgreSQL when DATABASE_URL is set: PGlite starts slowly on a busy machine), a listener per limits.
  const schema = uniqueSchema('attack');
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await createSandbox({ demo: true, bodyLimitBytes: 64 * 1024, ...(DATABASE_URL ? { databaseUrl: DATABASE_URL, databaseSchema: schema } : {}) });
  }, 120_000);
  afterAll(async () => {
    if (DATABASE_URL) await sandbox?.context.db.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await sandbox?.close();
  });

  // The limits pass through the sandbox's options, as startSandbox takes them.
  attackSuite((limits) => serveHttp(sandbox.app, { limits: resolveSandboxOptions({ limits }).limits }), {
    path: '/checkout',
    get headers() { return { 'X-Wallet-Token': plausibleToken() }; },
    bodyLimitBytes: 64 * 1024,
  });
});
