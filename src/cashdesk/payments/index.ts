// Payments the cash desk server runs for its tills: one payment session per till payment
// (docs/architecture.md, "The path of a payment").
export { CashDeskPayments } from './service.js';
export type { CashDeskPaymentsOptions } from './options.js';
export type { OwnershipChange, OwnershipEvent } from './ownership.js';
export type { Payments } from './api.js';
export {
  PaymentsError,
  paymentRefusal,
  RelayedRefusal,
  type PaymentRefusal,
  type PaymentsErrorCode,
} from './errors.js';
export type { UpdateListener } from './feed.js';
export { paymentMigrations } from './migrations.js';
