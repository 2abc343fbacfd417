// Brute-force limits for credential checks, shared by the cash desk server, the sandbox and the Loyalty server.
export { FailureLimiter, type FailureBudget, type FailureLimiterOptions, type Lockout } from './failure-limiter.js';
export { addressKey } from './address.js';
export { RedisFailureCounts, type RedisFailureCountsOptions } from './redis-counts.js';
export type { SharedFailure, SharedFailureCounts } from './shared-counts.js';
