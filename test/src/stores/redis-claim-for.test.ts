import { beforeAll, describe, expect, it } from 'vitest';
import type { RedisStore } from '../../../src/stores/redis.js';
import { redisTestStore } from '../../support/redis-store.js';

const redis = redisTestStore('claimfor', 'the RedisStore claimFor tests');

describe.skipIf(redis.skip)('RedisStore claimFor', () => {
  const { prefix } = redis;
  let store: RedisStore;
  beforeAll(() => {
    store = redis.store()!;
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
