export {
  BATCH_SIZE_MESSAGE,
  BatchPushRequest,
  BatchPushResponse,
  MAX_BATCH,
  MSISDN,
  Msisdn,
  PushMessage,
  PushMessageState,
  PushStatus,
  RejectedNumber,
  ResetPasswordRequest,
  ResetPasswordResponse,
  SUB_ID_NULL_MESSAGE,
  SinglePushRequest,
  SinglePushResponse,
  SubId,
} from './bodies.js';
export { PUSH_ERROR_STATUS, UNAUTHORIZED_MESSAGE, type PushErrorCode } from './errors.js';
export { PUSH_API_VERSION, PUSH_PATHS } from './paths.js';
export { IDEMPOTENCY_KEY, IdempotencyHeaders, MessageIdPath, PUSH_HEADERS } from './headers.js';
