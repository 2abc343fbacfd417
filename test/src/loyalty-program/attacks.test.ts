import { afterAll, beforeAll, describe } from 'vitest';
import { serveHttp } from '../../../adapters/http-server/serve.js';
import { openDatabase, type Database } from '../../../src/db/index.js';
import { demoConfig } from '../../../src/demo.js';
import { createLoyaltyProgram, type LoyaltyProgram } from '../../../src/loyalty-program/program.js';
import { attackSuite } from '../../support/attack-suite.js';
import { uniqueSchema } from '../../support/databases.js';
import { DATABASE_URL } from '../../support/services.js';

describe('Loyalty server under attack', () => {
  const { login, password } = demoConfig.loyalty;
  const schema = uniqueSchema('attack');
  let db: Database;
  let program: LoyaltyProgram;
  beforeAll(async () => {
    // PostgreSQL when DATABASE_URL is set: PGlite starts slowly on a busy machine.
    db = await openDatabase(DATABASE_URL ? { url: DATABASE_URL, schema } : {});
    program = await createLoyaltyProgram(db, { partnerKey: demoConfig.verifier.key, credentials: { login, password } });
  }, 120_000);
  afterAll(async () => {
    if (DATABASE_URL) await db?.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db?.close();
  });

  attackSuite((limits) => serveHttp(program.app, { limits }), {
    path: '/v1/card/anonymous',
    headers: { Authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` },
    bodyLimitBytes: 64 * 1024,
  });
});
