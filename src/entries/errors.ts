// `wallet-partner-kit/errors`: every error class the kit's users meet, all under `KitError`, and the code table.
export {
  ArgumentError,
  ConfigError,
  DATABASE_RETRY_AFTER_SECONDS,
  KitError,
  type KitErrorCode,
  LockoutError,
  MeasureError,
  RequestDataError,
  StoreError,
} from '../errors.js';
export {
  ERROR_CODES,
  type ErrorCode,
  type ErrorCodeMapping,
  httpStatusOf,
  isErrorCode,
  JSON_RPC,
  jsonRpcCodeOf,
} from '../errors/codes.js';
export {
  PayError,
  type PayClientErrorCode,
  type PayErrorDetails,
  PaymentSessionError,
  type PaymentSessionErrorCode,
} from '../pay/errors.js';
export { PushError, type PushErrorCode, type PushErrorDetails } from '../push/errors.js';
export { LoyaltyClientError, type LoyaltyClientErrorCode, LoyaltyError } from '../loyalty/errors.js';
export type { LoyaltyErrorCode } from '../contracts/loyalty/errors.js';
export { PaymentsError, type PaymentsErrorCode } from '../cashdesk/payments/errors.js';
export { WebhookError, type WebhookErrorCode } from '../webhooks/errors.js';
export { DataDirInUseError } from '../db/data-dir-lock.js';
export { PgliteSnapshotStaleError } from '../db/baked-migrations.js';
