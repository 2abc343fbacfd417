// Payments the cash desk server runs for its tills (issue 11): one payment session per till payment.
export { CashDeskPayments } from './service.js';
export type { CashDeskPaymentsOptions } from './options.js';
export type { Payments } from './api.js';
export { PaymentsError, paymentRefusal, RelayedRefusal, type PaymentRefusal, type PaymentsErrorCode } from './errors.js';
export type { UpdateListener } from './feed.js';
export { paymentMigrations } from './migrations.js';
