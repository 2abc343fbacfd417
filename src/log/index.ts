export { createLogger, silentLogger, type CreateLoggerOptions } from './logger.js';
export { logPolicyOptions, REDACTED_LOG_FIELDS, serializeError, withLogPolicy } from './policy.js';
export { acceptedRequestId, currentRequestId, REQUEST_ID_HEADER, requestIdFrom, withRequestId } from './request-id.js';
