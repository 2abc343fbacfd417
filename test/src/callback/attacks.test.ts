import { afterAll, beforeAll, describe } from 'vitest';
import { createCallbackReceiver, type CallbackReceiver } from '../../../src/callback-receiver/receiver.js';
import { openDatabase, type Database } from '../../../src/db/index.js';
import { attackSuite } from '../../support/attack-suite.js';
import { uniqueSchema } from '../../support/databases.js';
import { DATABASE_URL } from '../../support/services.js';

describe('Callback receiver under attack', () => {
  const schema = uniqueSchema('attack');
  let db: Database;
  let receiver: CallbackReceiver;
  beforeAll(async () => {
    // PostgreSQL when DATABASE_URL is set: PGlite starts slowly on a busy machine.
    db = await openDatabase(DATABASE_URL ? { url: DATABASE_URL, schema } : {});
    receiver = await createCallbackReceiver({
      secrets: `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
      database: db,
    });
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
    if (DATABASE_URL) await db?.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db?.close();
  });

  // Each listen() is one more server of the receiver's; close() of its handle stops that one.
  attackSuite((limits) => receiver.listen({ limits }), { path: '/callback', headers: {}, bodyLimitBytes: 64 * 1024 });
});
