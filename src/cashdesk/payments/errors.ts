import { KitError, type KitErrorCode } from '../../errors.js';
import { PayError, PaymentSessionError } from '../../pay/errors.js';

/**
 * Why the cash desk server refused a payment intent of a till, beside the Pay
 * API's own refusals (`PayError`) and the session's (`PaymentSessionError`).
 * `PAY_NOT_CONFIGURED`: the server has no `pay.url`; `PAYMENT_NOT_FOUND`: no
 * such payment for this till; `BARCODE_REFUSED`: the scan is not a valid
 * barcode with a card session (or another card's); `NO_RESCAN_PENDING`: the
 * payment is not waiting for a rescan; `PAYMENT_BUSY`: another server instance
 * drives the payment and did not hand it over in time (an intent of its own runs
 * there): retry; `PAYMENT_MOVED`: another instance took the payment over while
 * this intent ran (this one lost its lease): retry, it is carried on there;
 * `PAYMENTS_CLOSED`: the server is stopping.
 */
export type PaymentsErrorCode =
  | 'PAY_NOT_CONFIGURED'
  | 'PAYMENT_NOT_FOUND'
  | 'BARCODE_REFUSED'
  | 'NO_RESCAN_PENDING'
  | 'PAYMENT_BUSY'
  | 'PAYMENT_MOVED'
  | 'PAYMENTS_CLOSED';

/** A refused payment intent; `errors` are `<field>: <message>` lines a till may show. */
export class PaymentsError extends KitError {
  declare readonly code: PaymentsErrorCode;
  readonly errors: readonly string[];

  constructor(code: PaymentsErrorCode, message: string, errors: readonly string[] = []) {
    super(code, message);
    this.errors = errors;
  }
}

/** What a transport tells a till about a refused payment intent. */
export interface PaymentRefusal {
  /** Which family: the Pay API (`pay`), the payment session (`session`), or the cash desk server (`payments`). */
  source: 'pay' | 'session' | 'payments';
  /** The stable code: a `PayError`, `PaymentSessionError` or `PaymentsError` code. */
  code: KitErrorCode;
  message: string;
  errors: readonly string[];
}

/**
 * A refusal made where the payments run (the payments thread) and carried to
 * the transport as it was made: `paymentRefusal` answers it unchanged.
 */
export class RelayedRefusal extends KitError {
  constructor(readonly refusal: PaymentRefusal) {
    super(refusal.code, refusal.message);
  }
}

/**
 * The refusal to send for an error thrown by the payments service, or
 * undefined when it is none of its errors (a bug: the transport logs it and
 * answers a bare internal error). Messages of these errors carry no keys,
 * tokens or bodies.
 */
export function paymentRefusal(error: unknown): PaymentRefusal | undefined {
  if (error instanceof RelayedRefusal) return error.refusal;
  const source =
    error instanceof PayError
      ? 'pay'
      : error instanceof PaymentSessionError
        ? 'session'
        : error instanceof PaymentsError
          ? 'payments'
          : undefined;
  if (source === undefined) return undefined;
  const { code, message } = error as PayError | PaymentSessionError | PaymentsError;
  const errors = error instanceof PayError || error instanceof PaymentsError ? error.errors : [];
  return { source, code, message, errors };
}

/** No such payment for this till. */
export function notFound(paymentId: string): PaymentsError {
  return new PaymentsError('PAYMENT_NOT_FOUND', `this till has no payment ${paymentId}`, [
    'paymentId: no such payment for this till',
  ]);
}
