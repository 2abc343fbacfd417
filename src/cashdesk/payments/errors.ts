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
export class PaymentsError extends Error {
  readonly code: PaymentsErrorCode;
  readonly errors: readonly string[];

  constructor(code: PaymentsErrorCode, message: string, errors: readonly string[] = []) {
    super(message);
    this.name = 'PaymentsError';
    this.code = code;
    this.errors = errors;
  }
}

/** What a transport tells a till about a refused payment intent. */
export interface PaymentRefusal {
  /** Which family: the Pay API (`pay`), the payment session (`session`), or the cash desk server (`payments`). */
  source: 'pay' | 'session' | 'payments';
  /** The stable code: a `PayError`, `PaymentSessionError` or `PaymentsError` code. */
  code: string;
  message: string;
  errors: readonly string[];
  /** The HTTP status of the `/v1/payments` twin. */
  httpStatus: number;
}

/**
 * A refusal made where the payments run (the payments thread) and carried to
 * the transport as it was made: `paymentRefusal` answers it unchanged.
 */
export class RelayedRefusal extends Error {
  constructor(readonly refusal: PaymentRefusal) {
    super(refusal.message);
    this.name = 'RelayedRefusal';
  }
}

const PAY_STATUS: Record<string, number> = {
  BAD_REQUEST: 400, AMOUNT_MISMATCH: 422, NOT_FOUND: 404, TOKEN_INVALID: 409, CARD_SESSION_INVALID: 409,
  IDEMPOTENCY_CONFLICT: 409, INVALID_STATE: 409, NETWORK: 502, SERVER: 502, PROTOCOL: 502, TIMEOUT: 504,
};
const PAYMENTS_STATUS: Record<PaymentsErrorCode, number> = {
  PAY_NOT_CONFIGURED: 503, PAYMENT_NOT_FOUND: 404, BARCODE_REFUSED: 422, NO_RESCAN_PENDING: 409, PAYMENT_BUSY: 503, PAYMENT_MOVED: 503, PAYMENTS_CLOSED: 503,
};

/**
 * The refusal to send for an error thrown by the payments service, or
 * undefined when it is none of its errors (a bug: the transport logs it and
 * answers a bare internal error). Messages of these errors carry no keys,
 * tokens or bodies.
 */
export function paymentRefusal(error: unknown): PaymentRefusal | undefined {
  if (error instanceof RelayedRefusal) return error.refusal;
  if (error instanceof PayError) {
    return { source: 'pay', code: error.code, message: error.message, errors: error.errors, httpStatus: PAY_STATUS[error.code] ?? 502 };
  }
  if (error instanceof PaymentSessionError) {
    return { source: 'session', code: error.code, message: error.message, errors: [], httpStatus: error.code === 'OUTCOME_UNKNOWN' ? 504 : 409 };
  }
  if (error instanceof PaymentsError) {
    return { source: 'payments', code: error.code, message: error.message, errors: error.errors, httpStatus: PAYMENTS_STATUS[error.code] };
  }
  return undefined;
}
