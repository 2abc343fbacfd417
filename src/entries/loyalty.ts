export type {
  AnonymousCardRequest,
  AnonymousCardResponse,
  CardPath,
  CategoriesResponse,
  Category,
  CategoryGroup,
  FavoriteSelection,
  FavoritesResponse,
  PromoCodeRequest,
  PromoCodeResponse,
  PromoCodeResult,
  ReceiptQrRequest,
  ReceiptQrResponse,
  ReceiptQrResult,
  SetFavoritesRequest,
} from '../contracts/loyalty/bodies.js';
export type { LoyaltyErrorCode } from '../contracts/loyalty/errors.js';
export {
  formatReceiptQr,
  parseReceiptQr,
  type FiscalReceipt,
  type ReceiptOperationType,
  type ReceiptQrParse,
} from '../contracts/loyalty/receipt-qr.js';
export type { LoyaltyOperation } from '../contracts/loyalty/operations.js';
export { LOYALTY_API_VERSION, type LoyaltyApiVersion } from '../contracts/loyalty/versions.js';
export { LoyaltyError, LoyaltyClientError, type LoyaltyClientErrorCode } from '../loyalty/errors.js';
export type { LoyaltyCallContext, LoyaltyHandlers } from '../loyalty/handlers.js';
export { createLoyaltyServer, type LoyaltyServerOptions } from '../loyalty-server/server.js';
export { basicAuth, type LoyaltyAuth } from '../loyalty-server/auth.js';
export {
  MemoryIdempotencyCache,
  type IdempotencyCache,
  type MemoryIdempotencyOptions,
} from '../loyalty-server/idempotency.js';
export { createLoyaltyClient, type LoyaltyClient, type LoyaltyClientOptions } from '../loyalty/client/client.js';
export type { LoyaltyInputs, LoyaltyTransportOptions, RawAnswer } from '../loyalty/client/transport.js';
export {
  runConformanceCheck,
  type ConformanceOptions,
  type ConformanceReport,
  type ConformanceResult,
  type ConformanceSubject,
} from '../loyalty/check/check.js';
export type { LoyaltyProgramOptions } from '../loyalty-program/options.js';
export {
  startLoyaltyProgram,
  type RunningLoyaltyProgram,
  type StartLoyaltyProgramOptions,
} from '../loyalty-program/start.js';
