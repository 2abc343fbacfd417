export type { RetryPolicy } from '../net/backoff.js';
export type { Sleep } from '../time/sleep.js';
export type {
  AvailabilityAnswer,
  AvailabilityTaskAnswer,
  CheckoutAnswer,
  ReceiptAnswer,
  RefundAnswer,
  TransactionAnswer,
} from '../contracts/pay/answers.js';
export type { NotUnderstood } from '../contracts/pay/reader.js';
export {
  checkPayApi,
  type PayCheckFailure,
  type PayCheckField,
  type PayCheckOptions,
  type PayCheckProgress,
  type PayCheckReport,
  type PayCheckResult,
  type PayCheckVerdict,
} from '../pay/check/check.js';
export type { BarcodeSplitter, SandboxCardOptions } from '../pay/check/card.js';
export type { PayCheckExchange } from '../pay/check/record.js';
export {
  createPayClient,
  type CancelInput,
  type PayCallOptions,
  type PayClient,
  type ReceiptInput,
  type RefundInput,
  type StatusInput,
} from '../pay/client.js';
export type { DialectErrorKey, PayDialect, PayDialectConfig } from '../contracts/pay/dialect.js';
export type { TransactionRef } from '../contracts/pay/bodies.js';
export { amountMismatch, type PricedLine } from '../contracts/pay/amounts.js';
export {
  convertMeasure,
  weighedItem,
  type WeighedLine,
  type Weighing,
  type WeightMeasure,
} from '../contracts/pay/units.js';
export { MeasureError } from '../errors.js';
export type { Endpoint as PayEndpoint } from '../pay/endpoints.js';
export {
  PayError,
  PaymentSessionError,
  type PayClientErrorCode,
  type PayErrorDetails,
  type PaymentSessionErrorCode,
} from '../pay/errors.js';
export type { PayClientEvent, PayOperation } from '../pay/events.js';
export type { PayClientOptions, PayProfile, Sign, SignContext, TokenSigner } from '../pay/options.js';
export { createPaymentSession, type PaymentSession } from '../pay/session.js';
export type {
  Basket,
  BasketItem,
  PaymentPhase,
  PaymentSessionEvent,
  PaymentSessionEventOf,
  PaymentSessionOptions,
  Provider as PayProvider,
  PaymentSessionSnapshot,
  ProviderMessage,
  RescanReason,
  UnknownReason,
} from '../pay/session-types.js';
export { createTransactionUpdates, type TransactionListener, type TransactionUpdates } from '../pay/updates.js';
export { createPayWebhookHandler, type PayWebhookOptions, type TransactionUpdate } from '../pay/webhook.js';
