import { afterEach, describe, expect, it } from 'vitest';
import { createCallbackReceiver } from '../../../src/callback-receiver/receiver.js';
import { HealthCheck } from '../../../adapters/http-server/health.js';
import { openDatabase, type Database } from '../../../src/db/index.js';
import { demoConfig } from '../../../src/demo.js';
import { createLoyaltyProgram } from '../../../src/loyalty-program/program.js';
import { uniqueSchema } from '../../support/databases.js';
import { startTestSandbox } from '../../support/sandbox.js';
import { DATABASE_URL } from '../../support/services.js';
import { testClock } from '../../support/clock.js';

describe('HealthCheck', () => {
  it('names the dependencies whose probe fails, in the order given', async () => {
    const health = new HealthCheck({
      redis: async () => {
        throw new Error('ECONNREFUSED');
      },
      database: async () => 1,
      queue: () => Promise.reject(new Error('x')),
    });
    expect(await health.check()).toEqual({ failing: ['redis', 'queue'] });
  });

  it('counts a probe that does not answer within timeoutMs as failing', async () => {
    const health = new HealthCheck({ redis: () => new Promise(() => {}) }, { timeoutMs: 5 });
    expect(await health.check()).toEqual({ failing: ['redis'] });
  });

  it('counts a probe that throws synchronously as failing, without throwing', async () => {
    const health = new HealthCheck({
      database: () => {
        throw new Error('closed');
      },
    });
    expect(await health.check()).toEqual({ failing: ['database'] });
  });

  it('reuses a result for cacheMs and shares one round among concurrent checks', async () => {
    const cacheTime = testClock(0);
    let probes = 0;
    const health = new HealthCheck(
      {
        redis: async () => {
          probes++;
        },
      },
      { cacheMs: 1_000, clock: cacheTime.now },
    );
    await Promise.all(Array.from({ length: 50 }, () => health.check()));
    expect(probes).toBe(1);
    cacheTime.set(999);
    await health.check();
    expect(probes).toBe(1);
    cacheTime.set(1_000);
    await health.check();
    expect(probes).toBe(2);
  });
});

/** The clock the servers under test read: moved past the health cache by hand, never waited for. */
const time = testClock(1_800_000_000_000);
const clock = time.now;

/**
 * A database of its own (a schema on PostgreSQL when DATABASE_URL is set: PGlite starts slowly on a busy machine), and
 * how to drop it.
 */
async function freshDatabase(): Promise<{ db: Database; drop(): Promise<void> }> {
  if (!DATABASE_URL) {
    const db = await openDatabase();
    return { db, drop: () => db.close() };
  }
  const schema = uniqueSchema('health');
  const db = await openDatabase({ url: DATABASE_URL, schema });
  return { db, drop: () => dropSchema(schema) };
}

async function dropSchema(schema: string): Promise<void> {
  const admin = await openDatabase({ url: DATABASE_URL! });
  await admin.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.close();
}

describe('/healthz and /livez of the database-backed servers', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function expectHealthFollowsDatabase(
    app: { request(path: string): Response | Promise<Response> },
    db: Database,
    okBody: object,
  ): Promise<void> {
    let res = await app.request('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', ...okBody });
    await db.close();
    // Within the cache (about a second) a check storm gets the last answer and never reaches the database.
    expect((await app.request('/healthz')).status).toBe(200);
    time.advance(1_000);
    res = await app.request('/healthz');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'unavailable', failing: ['database'] });
    const live = await app.request('/livez');
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
  }

  it('sandbox: 503 naming the database once it stops answering, /livez still 200', async () => {
    const running = await startTestSandbox({ clock, database: DATABASE_URL ? 'postgres' : 'pglite' });
    const sandbox = running.sandbox;
    cleanups.push(() => running.close());
    await expectHealthFollowsDatabase(sandbox.app, sandbox.context.db, { database: sandbox.context.db.kind });
  }, 120_000);

  it('Loyalty server: 503 naming the database once it stops answering, /livez still 200', async () => {
    const { db, drop } = await freshDatabase();
    cleanups.push(drop);
    const { login, password } = demoConfig.loyalty;
    const program = await createLoyaltyProgram(db, {
      partnerKey: demoConfig.verifier.key,
      credentials: { login, password },
      clock,
    });
    await expectHealthFollowsDatabase(program.app, db, { api: 'loyalty' });
  }, 120_000);

  it('Callback receiver: 503 naming the database once it stops answering, /livez still 200', async () => {
    const { db, drop } = await freshDatabase();
    const receiver = await createCallbackReceiver({
      secrets: `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
      database: db,
      clock,
    });
    cleanups.push(() => receiver.close(), drop);
    await expectHealthFollowsDatabase(receiver.app, db, {});
  }, 120_000);
});
