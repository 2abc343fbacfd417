// Small HTTP-client and credential helpers shared by clients and servers alike
// (below both): Basic auth (RFC 7617), constant-time secret comparison, sleeping.
export { basicAuthHeader, parseBasicAuth, safeEqual, type BasicCredentials } from './basic-auth.js';
export { realSleep, type Sleep } from './sleep.js';
export { backoffDelay, DEFAULT_RETRY_POLICY, retryAfterMs, type RetryPolicy } from './backoff.js';
