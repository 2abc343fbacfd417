export { amountMismatch, lineAmount, purchaseAmount, purchaseAmountExact, type PricedLine } from './amounts.js';
export {
  ANSWER_READERS,
  type AnswerReader,
  type AvailabilityAnswer,
  type AvailabilityTaskAnswer,
  type CheckoutAnswer,
  type ReceiptAnswer,
  type RefundAnswer,
  type TransactionAnswer,
} from './answers.js';
export {
  AvailabilityRequest,
  AvailabilityResponse,
  AvailabilityTaskRequest,
  AvailabilityTaskResponse,
  CancelRequest,
  CardSession,
  CheckoutRequest,
  CheckoutResponse,
  Offer,
  Provider,
  ProviderId,
  ReceiptRequest,
  ReceiptResponse,
  RefundItem,
  RefundRequest,
  RefundResponse,
  RequestId,
  StatusRequest,
  TransactionId,
  TransactionRef,
  TransactionState,
  TransactionUpdatedEvent,
} from './bodies.js';
export { PAY_ERROR_STATUS, PayErrorEnvelope, SANDBOX_ERROR_STATUS, TOKEN_HEADER, type PayErrorCode } from './errors.js';
export { Amounts, GivenItem, Item, MAX_AMOUNT, MAX_QUANTITY, Measure } from './items.js';
export { RejectReason, StatusClass, TRANSITIONS, TransactionStatus, canMove, statusClass } from './statuses.js';
export {
  GRAMS_PER_KILOGRAM,
  convertMeasure,
  weighedItem,
  type WeighedLine,
  type Weighing,
  type WeightMeasure,
} from './units.js';
