// Redis-backed state shared by every server of a chain, apart from the root so that embedding the verifier with
// the in-memory store does not load the Redis client.
export { RedisFailureCounts, type RedisFailureCountsOptions } from '../guard/redis-counts.js';
export { RedisStore, type RedisStoreOptions } from '../stores/redis.js';
