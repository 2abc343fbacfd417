import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisStore } from '../../../src/index.js';
import { haveService, REDIS_URL } from '../../support/services.js';

describe.skipIf(!haveService('REDIS_URL', REDIS_URL, 'the RedisStore claimFor tests'))('RedisStore claimFor', () => {
  const prefix = `wpk-test-claimfor:${process.pid}:${randomBytes(4).toString('hex')}:`;
  let store: RedisStore;

  beforeAll(() => {
    store = new RedisStore({ url: REDIS_URL!, keyPrefix: prefix });
  });

  afterAll(async () => {
    const leftover = await store.client.keys(`${prefix}*`);
    if (leftover.length > 0) await store.client.del(...leftover);
    await store.close();
  });

  it('records the owner once and then answers it, with the TTL of the first claim', async () => {
    expect(await store.claimFor('replay:a', 60_000, 'till-1')).toBe(true);
    expect(await store.claimFor('replay:a', 60_000, 'till-2')).toBe('till-1');
    expect(await store.claim('replay:a', 60_000)).toBe(false);
    const ttl = await store.client.pttl(`${prefix}replay:a`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('answers the empty owner for a mark made by claim', async () => {
    expect(await store.claim('replay:b', 60_000)).toBe(true);
    expect(await store.claimFor('replay:b', 60_000, 'till-1')).toBe('');
  });

  it('keeps replay marks and failure counters in separate keys, each with a TTL', async () => {
    await store.claimFor('replay:c', 60_000, 'till-1');
    await store.increment('fail:c', 60_000);
    for (const key of ['replay:c', 'fail:c']) expect(await store.client.pttl(`${prefix}${key}`)).toBeGreaterThan(0);
  });
});
