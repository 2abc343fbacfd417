import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { LockoutError } from '../../../src/errors.js';
import { type FailureBudget, FailureLimiter, type Lockout, RedisFailureCounts } from '../../../src/guard/index.js';
import { CashDeskService } from '../../../src/cashdesk/service.js';
import { TillRegistry } from '../../../src/cashdesk/tills.js';
import { createVerifier } from '../../../src/entries/index.js';
import { BASE_CONFIG } from '../../support/fixtures.js';
import { testClock } from '../../support/clock.js';
import { captureLog } from '../../support/log-capture.js';
import { haveService, REDIS_URL } from '../../support/services.js';

const ADDRESS = '203.0.113.7';
const OTHER = '198.51.100.9';
const skip = !haveService('REDIS_URL', REDIS_URL, 'the shared wrong-key limiter tests');

/** One instance of a server: its own Redis connections, its own limiter, the lockouts it reported. */
interface Instance {
  limiter: FailureLimiter;
  counts: RedisFailureCounts;
  lockouts: Lockout[];
  fail(address?: string): void;
}

describe.skipIf(skip)('FailureLimiter with RedisFailureCounts (real Redis)', () => {
  const clients: Redis[] = [];
  const counts: RedisFailureCounts[] = [];
  const base = `wpk-test-guard:${process.pid}:${randomBytes(4).toString('hex')}:`;
  let keyPrefix = base;

  async function instance(budget: FailureBudget = { maxFailures: 50, windowMs: 300_000 }): Promise<Instance> {
    const client = new Redis(REDIS_URL!, { maxRetriesPerRequest: 1 });
    clients.push(client);
    const shared = new RedisFailureCounts({ client, keyPrefix });
    counts.push(shared);
    await shared.ready();
    const clock = testClock(0).now;
    const limiter = new FailureLimiter({ perAddress: budget, perCredential: false, clock, shared });
    const lockouts: Lockout[] = [];
    const fail = (address = ADDRESS) => {
      const lockout = limiter.failed(address, undefined, (l) => lockouts.push(l));
      if (lockout !== undefined) lockouts.push(lockout);
    };
    return { limiter, counts: shared, lockouts, fail };
  }

  /** Resolves when `counts` hears of a lockout of `address` (the limiter, listening first, has applied it). */
  const hears = (shared: RedisFailureCounts, address: string) =>
    new Promise<void>((resolve) => {
      shared.onLocked((key) => {
        if (key === address) resolve();
      });
    });

  afterAll(async () => {
    const leftover = (await clients[0]?.keys(`${base}*`)) ?? [];
    if (leftover.length > 0) await clients[0]!.del(...leftover);
    for (const shared of counts) await shared.close();
    for (const client of clients) await client.quit();
  });

  it('locks an address out on both instances once they saw 50 wrong keys between them, not 50 each', async () => {
    keyPrefix = `${base}both:`;
    const [a, b] = [await instance(), await instance()];
    for (let i = 0; i < 25; i++) a.fail();
    await a.limiter.settled();
    for (let i = 0; i < 24; i++) b.fail();
    await b.limiter.settled();
    // 49 in all: per process each is far from its budget, and so is the cluster.
    expect(a.limiter.check(ADDRESS)).toBeUndefined();
    expect(b.limiter.check(ADDRESS)).toBeUndefined();
    const heardOnA = hears(a.counts, ADDRESS);
    b.fail();
    await b.limiter.settled();
    expect(b.limiter.check(ADDRESS)).toBeInstanceOf(LockoutError);
    expect(b.lockouts).toEqual([{ scope: 'address', address: ADDRESS, retryAfterSeconds: 300 }]);
    await heardOnA;
    expect(a.limiter.check(ADDRESS)).toMatchObject({ scope: 'address', retryAfterSeconds: 300 });
    expect(a.lockouts).toEqual([]);
    // Only that address.
    expect(a.limiter.check(OTHER)).toBeUndefined();
    expect(b.limiter.check(OTHER)).toBeUndefined();
  });

  it('begins exactly one lockout when both instances fail at once past the budget', async () => {
    keyPrefix = `${base}race:`;
    const [a, b] = [await instance(), await instance()];
    for (let i = 0; i < 40; i++) {
      a.fail();
      b.fail();
    }
    await Promise.all([a.limiter.settled(), b.limiter.settled()]);
    expect(a.lockouts.length + b.lockouts.length).toBe(1);
    expect(a.limiter.lockouts + b.limiter.lockouts).toBe(1);
    expect(a.limiter.check(ADDRESS)).toBeInstanceOf(LockoutError);
    expect(b.limiter.check(ADDRESS)).toBeInstanceOf(LockoutError);
  });

  it('locks an address out of two cash desks once its wrong keys to their HTTP and bridge add up to 50', async () => {
    keyPrefix = `${base}desk:`;
    const [a, b] = [await instance(), await instance()];
    const till = { id: 'till-1', key: 'till-key-0123456789abcdef' };
    const verifier = createVerifier({ ...BASE_CONFIG, backend: 'wasm', replay: false });
    try {
      const tills = new TillRegistry([till]);
      const desk = (bruteForce: FailureLimiter) => new CashDeskService({ verifier, tills, bruteForce });
      const [deskA, deskB] = [desk(a.limiter), desk(b.limiter)];
      const wrong = (i: number) => `wrong-key-${i}-0123456789`;
      for (let i = 0; i < 25; i++) expect(deskA.authenticate(wrong(i), 'http', ADDRESS)).toBeUndefined();
      await a.limiter.settled();
      const heardOnA = hears(a.counts, ADDRESS);
      for (let i = 25; i < 50; i++) expect(deskB.authenticate(wrong(i), 'ws', ADDRESS)).toBeUndefined();
      await b.limiter.settled();
      await heardOnA;
      // The right key is not even checked any more, on either instance; other addresses are not affected.
      expect(() => deskA.authenticate(till.key, 'http', ADDRESS)).toThrow(LockoutError);
      expect(() => deskB.authenticate(till.key, 'ws', ADDRESS)).toThrow(LockoutError);
      expect(deskA.authenticate(till.key, 'http', OTHER)).toMatchObject({ id: 'till-1' });
      expect(a.limiter.lockouts + b.limiter.lockouts).toBe(1);
    } finally {
      await verifier.close();
    }
  });

  it('keeps its keys under the namespace, each expiring with its window or lockout', async () => {
    keyPrefix = `${base}ttl:`;
    const a = await instance({ maxFailures: 2, windowMs: 60_000, lockoutMs: 120_000 });
    a.fail(OTHER);
    await a.limiter.settled();
    const client = clients.at(-1)!;
    const countKey = `${keyPrefix}guard:till-keys:{${OTHER}}:count`;
    expect(await client.get(countKey)).toBe('1');
    const windowLeft = await client.pttl(countKey);
    expect(windowLeft).toBeGreaterThan(0);
    expect(windowLeft).toBeLessThanOrEqual(60_000);
    a.fail(OTHER);
    await a.limiter.settled();
    expect(await client.exists(countKey)).toBe(0);
    const lockLeft = await client.pttl(`${keyPrefix}guard:till-keys:{${OTHER}}:lock`);
    expect(lockLeft).toBeGreaterThan(60_000);
    expect(lockLeft).toBeLessThanOrEqual(120_000);
  });
});

describe('FailureLimiter with RedisFailureCounts while Redis is unreachable', () => {
  it('answers at once, counts in process, and says so in one warning', async () => {
    // Port 1 refuses at once; ioredis keeps retrying behind the scenes, as it would during an outage.
    const client = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: 1, retryStrategy: () => 20 });
    client.on('error', () => {});
    const log = captureLog('info');
    const shared = new RedisFailureCounts({ client, logger: log.logger });
    try {
      const limiter = new FailureLimiter({
        perAddress: { maxFailures: 50, windowMs: 300_000 },
        perCredential: false,
        clock: testClock(0).now,
        shared,
      });
      for (let i = 0; i < 49; i++) expect(limiter.failed(ADDRESS)).toBeUndefined();
      expect(limiter.failed(ADDRESS)).toMatchObject({ scope: 'address', retryAfterSeconds: 300 });
      expect(limiter.check(ADDRESS)).toBeInstanceOf(LockoutError);
      await limiter.settled();
      const warnings = log.lines().filter((line) => line.level === 40);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.msg).toBe('wrong-key limiter: Redis unreachable, counting in process until it is back');
    } finally {
      await shared.close();
      client.disconnect();
    }
  });
});
