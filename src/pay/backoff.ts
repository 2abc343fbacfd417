// The Pay client's retries use the kit's one backoff formula.
export { backoffDelay, DEFAULT_RETRY_POLICY, retryAfterMs, type RetryPolicy } from '../net/backoff.js';
export { realSleep, type Sleep } from '../net/sleep.js';
