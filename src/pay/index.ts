export { backoffDelay, DEFAULT_RETRY_POLICY, type RetryPolicy } from '../net/backoff.js';
export { realSleep, type Sleep } from '../time/sleep.js';
export type {
  AvailabilityAnswer, AvailabilityTaskAnswer, CheckoutAnswer, ReceiptAnswer, RefundAnswer, TransactionAnswer,
} from '../contracts/pay/answers.js';
export type { NotUnderstood } from '../contracts/pay/reader.js';
export {
  CHECK_BASKET, checkPayApi, type PayCheckFailure, type PayCheckField, type PayCheckOptions, type PayCheckProgress, type PayCheckReport,
  type PayCheckResult, type PayCheckVerdict,
} from './check.js';
export { cardSessionOfBarcode, sandboxCardSession, type BarcodeSplitter, type SandboxCardOptions } from './check-card.js';
export {
  formatPayCheckHeading, formatPayCheckReport, formatPayCheckResult, formatPayCheckSummary, type PayCheckFormat,
} from './check-format.js';
export type { PayCheckExchange } from './check-record.js';
export {
  createPayClient, type CancelInput, type PayCallOptions, type PayClient, type ReceiptInput, type RefundInput, type StatusInput,
} from './client.js';
export {
  DIALECT_ERROR_KEYS, KIT_DIALECT, resolvePayDialect, type DialectErrorKey, type PayDialect, type PayDialectConfig,
} from '../contracts/pay/dialect.js';
export type { TransactionRef } from '../contracts/pay/bodies.js';
export { amountMismatch, lineAmount, purchaseAmount, purchaseAmountExact, type PricedLine } from '../contracts/pay/amounts.js';
export { convertMeasure, GRAMS_PER_KILOGRAM, weighedItem, type WeighedLine, type Weighing, type WeightMeasure } from '../contracts/pay/units.js';
export { MeasureError } from '../errors.js';
export { ENDPOINTS as PAY_ENDPOINTS, type Endpoint as PayEndpoint } from './endpoints.js';
export { PayError, PaymentSessionError, type PayClientErrorCode, type PayErrorDetails, type PaymentSessionErrorCode } from './errors.js';
export type { PayClientEvent, PayOperation } from './events.js';
export { DEFAULT_TOKEN_HEADER, type PayClientOptions, type PayProfile, type Sign, type SignContext, type TokenSigner } from './options.js';
export { createPaymentSession, PaymentSession } from './session.js';
export type {
  Basket, BasketItem, PaymentPhase, PaymentSessionEvent, PaymentSessionEventOf, PaymentSessionOptions, Provider as PayProvider,
  PaymentSessionSnapshot, ProviderMessage, RescanReason, UnknownReason,
} from './session-types.js';
export { createTransactionUpdates, type TransactionListener, type TransactionUpdates } from './updates.js';
export { createPayWebhookHandler, type PayWebhookOptions, type TransactionUpdate } from './webhook.js';
