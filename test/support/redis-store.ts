import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { RedisStore } from '../../src/stores/redis.js';
import { haveService, REDIS_URL } from './services.js';

/**
 * A RedisStore under a key prefix no other run uses, opened before the file's tests and emptied and closed after them;
 * `store()` is undefined when REDIS_URL is unset (then `skip` is true and one line said so).
 */
export function redisTestStore(
  name: string,
  what: string,
): { skip: boolean; prefix: string; store: () => RedisStore | undefined } {
  const skip = !haveService('REDIS_URL', REDIS_URL, what);
  const prefix = `wpk-test-${name}:${process.pid}:${randomBytes(4).toString('hex')}:`;
  let store: RedisStore | undefined;
  beforeAll(() => {
    if (!skip) store = new RedisStore({ url: REDIS_URL!, keyPrefix: prefix });
  });
  afterAll(async () => {
    if (store === undefined) return;
    const leftover = await store.client.keys(`${prefix}*`);
    if (leftover.length > 0) await store.client.del(...leftover);
    await store.close();
  });
  return { skip, prefix, store: () => store };
}
