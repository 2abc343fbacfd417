export type { AsyncStore, SyncStore, VerificationStore } from './store.js';
export { MemoryStore, type MemoryStoreOptions } from './memory.js';
export { RedisStore, type RedisStoreOptions } from './redis.js';
