import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createVerifier, generateBarcode } from '../../../src/entries/index.js';
import { RedisStore } from '../../../src/stores/redis.js';
import { StoreError } from '../../../src/errors.js';
import { BASE_CONFIG, NOW } from '../../support/fixtures.js';
import { testClock } from '../../support/clock.js';
import { haveService, REDIS_URL } from '../../support/services.js';

/** Options that make a client give up at once on a Redis that is not there. */
const FAIL_FAST = { maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 500 };
const CLOSED_PORT = 'redis://127.0.0.1:1';

function barcodeFor(cardNumber: string, at = NOW): string {
  return generateBarcode({
    ...BASE_CONFIG,
    cardNumber,
    cardSession: 'AB12CD34',
    at,
  });
}

/** The same barcode with a different (wrong) password of the same length. */
function wrongPassword(barcode: string, bump = 1): string {
  const cut = barcode.lastIndexOf(BASE_CONFIG.delimeter) + 1;
  const password = barcode.slice(cut);
  const wrong = String((Number(password) + bump) % 10 ** password.length).padStart(password.length, '0');
  return barcode.slice(0, cut) + wrong;
}

/** A store on a closed port; its connection errors are expected, so they are not logged. */
function deadStore(redisOptions?: typeof FAIL_FAST): RedisStore {
  const store = new RedisStore({ url: CLOSED_PORT, keyPrefix: 'wpk-dead:', ...(redisOptions ? { redisOptions } : {}) });
  store.client.on('error', () => {});
  return store;
}

describe.skipIf(!haveService('REDIS_URL', REDIS_URL, 'the RedisStore tests'))('RedisStore', () => {
  const prefix = `wpk-test:${process.pid}:${randomBytes(4).toString('hex')}:`;
  let admin: Redis;
  let store: RedisStore;
  let n = 0;
  /** A key no other test uses. */
  const key = (what: string) => `${what}:${++n}`;
  /** Resolves once Redis itself reports the key gone (PTTL -2): waits on Redis's expiry, never on a timer of ours. */
  const expired = (k: string) =>
    vi.waitFor(async () => expect(await admin.pttl(prefix + k)).toBe(-2), { timeout: 10_000, interval: 20 });

  beforeAll(() => {
    admin = new Redis(REDIS_URL!);
    store = new RedisStore({ url: REDIS_URL!, keyPrefix: prefix });
  });

  afterAll(async () => {
    await store?.close();
    if (admin === undefined) return;
    const leftover = await admin.keys(`${prefix}*`);
    if (leftover.length > 0) await admin.del(...leftover);
    expect(await admin.keys(`${prefix}*`)).toEqual([]);
    await admin.quit();
  });

  describe('construction', () => {
    it('throws a TypeError when given neither a client nor a url', () => {
      expect(() => new RedisStore({})).toThrow(TypeError);
      expect(() => new RedisStore({ keyPrefix: 'x:' })).toThrow(/client or a url/);
    });

    it('reports itself as asynchronous', () => {
      expect(store.synchronous).toBe(false);
    });

    it('writes every key under its keyPrefix', async () => {
      const k = key('prefixed');
      expect(await store.claim(k, 10_000)).toBe(true);
      expect(await admin.exists(prefix + k)).toBe(1);
      expect(await admin.exists(k)).toBe(0);
    });

    it('leaves open a client it was given when closed', async () => {
      const client = new Redis(REDIS_URL!);
      const borrowed = new RedisStore({ client, keyPrefix: prefix });
      const k = key('borrowed');
      expect(await borrowed.claim(k, 10_000)).toBe(true);
      await borrowed.close();
      expect(client.status).toBe('ready');
      expect(await client.exists(prefix + k)).toBe(1);
      await client.quit();
    });

    it('closes the client it opened from a url', async () => {
      const owned = new RedisStore({ url: REDIS_URL!, keyPrefix: prefix });
      expect(await owned.count(key('owned'))).toBe(0);
      expect(owned.client.status).toBe('ready');
      await owned.close();
      await vi.waitFor(() => expect(owned.client.status).toBe('end'), { timeout: 15_000 });
    });
  });

  describe('claim', () => {
    it('returns true only for the call that records the key', async () => {
      const k = key('claim');
      expect(await store.claim(k, 10_000)).toBe(true);
      expect(await store.claim(k, 10_000)).toBe(false);
      expect(await store.claim(k, 10_000)).toBe(false);
      expect(await store.claim(key('claim-other'), 10_000)).toBe(true);
    });

    it('sets the TTL given in milliseconds (PX)', async () => {
      const k = key('claim-ttl');
      await store.claim(k, 60_000);
      const pttl = await admin.pttl(prefix + k);
      expect(pttl).toBeGreaterThan(55_000);
      expect(pttl).toBeLessThanOrEqual(60_000);
    });

    it('does not extend the life of a key it refuses to claim again', async () => {
      const k = key('claim-no-extend');
      await store.claim(k, 5_000);
      expect(await store.claim(k, 60_000)).toBe(false);
      expect(await admin.pttl(prefix + k)).toBeLessThanOrEqual(5_000);
    });

    it('lets the key be claimed again once its TTL has passed', async () => {
      const k = key('claim-expiry');
      expect(await store.claim(k, 100)).toBe(true);
      expect(await store.claim(k, 100)).toBe(false);
      expect(await admin.pttl(prefix + k)).toBeLessThanOrEqual(100);
      await expired(k);
      expect(await store.claim(k, 100)).toBe(true);
    });

    it('gives exactly one true among 50 concurrent claims of one key on one connection', async () => {
      const k = key('race-one-connection');
      const answers = await Promise.all(Array.from({ length: 50 }, () => store.claim(k, 10_000)));
      expect(answers.filter((a) => a)).toHaveLength(1);
      expect(answers.filter((a) => !a)).toHaveLength(49);
    });

    it('gives exactly one true among 50 concurrent claims of one key over 5 connections', async () => {
      const k = key('race-five-connections');
      const stores = Array.from({ length: 5 }, () => new RedisStore({ url: REDIS_URL!, keyPrefix: prefix }));
      try {
        await Promise.all(stores.map((s) => s.count('warm-up'))); // all connected before the race
        const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => stores[i % 5]!.claim(k, 10_000)));
        expect(answers.filter((a) => a)).toHaveLength(1);
      } finally {
        await Promise.all(stores.map((s) => s.close()));
      }
    });
  });

  describe('increment', () => {
    it('counts from 1 and returns each new count', async () => {
      const k = key('incr');
      expect(await store.increment(k, 10_000)).toBe(1);
      expect(await store.increment(k, 10_000)).toBe(2);
      expect(await store.increment(k, 10_000)).toBe(3);
      expect(await store.count(k)).toBe(3);
    });

    it('counts all of 50 concurrent increments', async () => {
      const k = key('incr-race');
      const counts = await Promise.all(Array.from({ length: 50 }, () => store.increment(k, 10_000)));
      expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      expect(await store.count(k)).toBe(50);
    });

    it('resets the TTL on every increment (PTTL)', async () => {
      const k = key('incr-pttl');
      await store.increment(k, 5_000);
      expect(await admin.pttl(prefix + k)).toBeLessThanOrEqual(5_000);
      await store.increment(k, 60_000);
      expect(await admin.pttl(prefix + k)).toBeGreaterThan(55_000);
      await store.increment(k, 5_000);
      expect(await admin.pttl(prefix + k)).toBeLessThanOrEqual(5_000);
    });

    it('keeps a counter alive past its first TTL when incremented again, then lets it expire', async () => {
      const k = key('incr-expiry');
      expect(await store.increment(k, 100)).toBe(1);
      // The second increment's TTL replaces the first's (PTTL), so no sleep is needed to tell them apart.
      expect(await store.increment(k, 60_000)).toBe(2);
      expect(await admin.pttl(prefix + k)).toBeGreaterThan(55_000);
      expect(await store.count(k)).toBe(2);
      expect(await store.increment(k, 100)).toBe(3);
      expect(await admin.pttl(prefix + k)).toBeLessThanOrEqual(100);
      await expired(k);
      expect(await store.count(k)).toBe(0);
      expect(await store.increment(k, 300)).toBe(1);
    });
  });

  describe('count', () => {
    it('returns 0 for an absent key', async () => {
      expect(await store.count(key('absent'))).toBe(0);
    });

    it('returns 0 once the counter has expired', async () => {
      const k = key('count-expiry');
      await store.increment(k, 100);
      await store.increment(k, 100);
      expect(await store.count(k)).toBe(2);
      await expired(k);
      expect(await store.count(k)).toBe(0);
    });
  });

  describe('delete', () => {
    it('forgets a claimed key so it can be claimed again', async () => {
      const k = key('delete-claim');
      expect(await store.claim(k, 10_000)).toBe(true);
      await store.delete(k);
      expect(await admin.exists(prefix + k)).toBe(0);
      expect(await store.claim(k, 10_000)).toBe(true);
    });

    it('resets a counter to 0', async () => {
      const k = key('delete-counter');
      await store.increment(k, 10_000);
      await store.increment(k, 10_000);
      await store.delete(k);
      expect(await store.count(k)).toBe(0);
      expect(await store.increment(k, 10_000)).toBe(1);
    });

    it('does nothing for an absent key', async () => {
      await expect(store.delete(key('delete-absent'))).resolves.toBeUndefined();
    });
  });

  describe('createVerifier over a RedisStore', () => {
    it('accepts a valid barcode once, then refuses it as REPLAYED', async () => {
      const verifier = createVerifier({ ...BASE_CONFIG, clock: testClock().now, replay: store });
      const barcode = barcodeFor(`4000${process.pid}01`);
      const first = verifier.barcodeVerify(barcode);
      expect(first).toBeInstanceOf(Promise);
      expect(await first).toMatchObject({ resultCode: 'CARDSESSION_AVAILABLE', reason: 'OK', totpCodeValid: true });
      expect(await verifier.barcodeVerify(barcode)).toEqual({
        resultCode: 'VALIDATION_FAILED',
        reason: 'REPLAYED',
        totpCodeValid: false,
        cardNumber: `4000${process.pid}01`,
        cardSession: null,
        fullBarcode: barcode,
      });
      await verifier.close();
    });

    it('refuses a valid barcode as LOCKED after maxFailures wrong passwords for the card', async () => {
      const verifier = createVerifier({ ...BASE_CONFIG, clock: testClock().now, replay: store });
      const barcode = barcodeFor(`4000${process.pid}02`);
      for (let i = 1; i <= 10; i++) {
        expect(await verifier.barcodeVerify(wrongPassword(barcode, i))).toMatchObject({ reason: 'CODE_MISMATCH' });
      }
      expect(await verifier.barcodeVerify(barcode)).toMatchObject({
        resultCode: 'VALIDATION_FAILED',
        reason: 'LOCKED',
      });
      await verifier.close();
    });

    it('returns a Promise for every string, a malformed or foreign barcode included', async () => {
      const verifier = createVerifier({ ...BASE_CONFIG, clock: testClock().now, replay: store });
      for (const barcode of ['not a barcode', 'XX;4000123412341234;AB12CD34;12345678']) {
        const result = verifier.barcodeVerify(barcode);
        expect.soft(result, barcode).toBeInstanceOf(Promise);
        await result;
      }
      await verifier.close();
    });
  });

  describe('when Redis is unreachable', () => {
    it('rejects every operation with StoreError STORE_UNAVAILABLE quickly (fail-fast options)', async () => {
      const dead = deadStore(FAIL_FAST);
      let reconnects = 0;
      dead.client.on('reconnecting', () => reconnects++);
      try {
        for (const call of [
          () => dead.claim('k', 1000),
          () => dead.increment('k', 1000),
          () => dead.count('k'),
          () => dead.delete('k'),
        ]) {
          const error = await call().then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(error).toBeInstanceOf(StoreError);
          expect(error).toMatchObject({ code: 'STORE_UNAVAILABLE' });
        }
        // Quickly = with no reconnection attempt in between (not timed: the test's own timeout catches a hang).
        expect(reconnects).toBe(0);
      } finally {
        await dead.close();
      }
    });

    it('rejects with StoreError STORE_UNAVAILABLE quickly with only a url (its own defaults)', async () => {
      const dead = deadStore();
      try {
        // Its defaults bound each command (one retry, a 2 s command timeout); a hang would hit the test's timeout.
        expect(dead.client.options).toMatchObject({ maxRetriesPerRequest: 1, commandTimeout: 2000 });
        await expect(dead.claim('k', 1000)).rejects.toSatisfy(
          (e) => e instanceof StoreError && e.code === 'STORE_UNAVAILABLE',
        );
        await expect(dead.increment('k', 1000)).rejects.toBeInstanceOf(StoreError);
      } finally {
        await dead.close();
      }
    });

    it(
      'makes the verifier reject barcodeVerify with that StoreError rather ' + 'than accept or refuse the barcode',
      async () => {
        const dead = deadStore(FAIL_FAST);
        const verifier = createVerifier({ ...BASE_CONFIG, clock: testClock().now, replay: dead });
        try {
          const barcode = barcodeFor('4000123412341234');
          for (const scanned of [barcode, wrongPassword(barcode)]) {
            const error = await verifier.barcodeVerify(scanned).then(
              (r) => r,
              (e: unknown) => e,
            );
            expect(error, scanned).toBeInstanceOf(StoreError);
            expect(error).toMatchObject({ code: 'STORE_UNAVAILABLE' });
          }
        } finally {
          await verifier.close();
          await dead.close();
        }
      },
    );
  });
});
