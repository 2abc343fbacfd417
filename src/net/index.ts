// Small HTTP-client and credential helpers shared by clients and servers alike
// (below both): Basic auth (RFC 7617), constant-time secret comparison, retry waits.
export { basicAuthHeader, parseBasicAuth, safeEqual, type BasicCredentials } from './basic-auth.js';
export { backoffDelay, DEFAULT_RETRY_POLICY, retryAfterMs, type RetryPolicy } from './backoff.js';
export {
  clientAddressOf,
  TrustedProxies,
  trustedProxiesSchema,
  trustSocket,
} from './client-address.js';
export { withoutPassword } from './masked-url.js';
