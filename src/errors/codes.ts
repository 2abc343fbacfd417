/**
 * The one table of the kit's error codes: each code's HTTP status and JSON-RPC
 * error code, read by every transport (the HTTP servers' error envelope, the
 * cash desk's bridge), so a failure has the same code, status and number
 * wherever it is answered. docs/architecture.md ("Errors") tells how codes are named.
 *
 * Naming: the words the interface document and the kit's published contracts put on
 * the wire (`BAD_REQUEST`, `CARD_SESSION_INVALID`, `CARD_NOT_FOUND`...) keep their
 * spelling, and one word means one thing in every API that uses it. The kit's own
 * codes are unique across families; where two families had the same failure (no
 * answer, an unreadable answer), the family is the prefix: `PAY_`, `PUSH_`, `LOYALTY_`.
 */

/** JSON-RPC numbers of the kit's own errors (the -32000..-32099 range the specification leaves to servers). */
export const JSON_RPC = {
  /** A kit error without a number of its own. */
  serverError: -32000,
  requestDataInvalid: -32001,
  storeUnavailable: -32002,
  verifierClosed: -32003,
  databaseUnavailable: -32004,
  /** The Pay API refused, or gave no usable answer. */
  pay: -32010,
  /** The payment session refused. */
  session: -32011,
  /** The cash desk server refused a payment intent. */
  payments: -32012,
  /** The specification's internal error: a bug, nothing about it is sent. */
  internal: -32603,
} as const;

/** What one code is answered with. */
export interface ErrorCodeMapping {
  /** HTTP status of the error envelope `{ status: code, errors }`. */
  readonly http: number;
  /** JSON-RPC `error.code` of a bridge answer (`error.data.code` is the code itself). */
  readonly jsonRpc: number;
}

const mapped = <H extends number, R extends number = typeof JSON_RPC.serverError>(http: H, jsonRpc?: R) =>
  ({ http, jsonRpc: jsonRpc ?? JSON_RPC.serverError }) as { readonly http: H; readonly jsonRpc: R };

/**
 * Every error code of the kit, by family. Branch on the code, never on the message.
 * A relayed Pay API refusal is answered to a till with the status here, not the Pay
 * API's own (its document's table, `PAY_ERROR_STATUS`): `TOKEN_INVALID` is the
 * wallet's token, not the till's key, so a till gets 409, never 401.
 */
export const ERROR_CODES = {
  // The verifier, its stores and the servers' start-up (src/errors.ts).
  CONFIG_INVALID: mapped(500),
  ARGUMENT_INVALID: mapped(500),
  /** The text to sign is not JSON (`getToken`, `token.get`, `POST /v1/token`). */
  REQUEST_DATA_INVALID: mapped(400, JSON_RPC.requestDataInvalid),
  CLOCK_INVALID: mapped(500),
  /** The verifier is closed: the server is stopping, retry elsewhere or later. */
  VERIFIER_CLOSED: mapped(503, JSON_RPC.verifierClosed),
  /** The replay/lockout store failed: the barcode was neither accepted nor refused. */
  STORE_UNAVAILABLE: mapped(503, JSON_RPC.storeUnavailable),
  BACKEND_UNAVAILABLE: mapped(503),
  DATA_DIR_IN_USE: mapped(500),
  /** A port to listen on is taken by another process, or not allowed. */
  PORT_UNAVAILABLE: mapped(500),
  PGLITE_SNAPSHOT_STALE: mapped(500),
  DATABASE_UNREACHABLE: mapped(503),
  /** Redis or the Pay API did not answer at start, and `requireDependencies` makes that fatal. */
  DEPENDENCY_UNREACHABLE: mapped(503),
  /** The database stopped answering: retry after a few seconds (`Retry-After`, `data.retryAfterMs`). */
  DATABASE_UNAVAILABLE: mapped(503, JSON_RPC.databaseUnavailable),
  /** Too many failed authentications (`LockoutError`). */
  TOO_MANY_REQUESTS: mapped(429),
  MEASURE_INEXACT: mapped(422),
  MEASURE_OUT_OF_RANGE: mapped(422),

  // The error envelope of the kit's HTTP servers (interface document sections 4, 7).
  /** A body, path parameter or query fails the contract. As a Pay API refusal relayed to a till: -32010. */
  BAD_REQUEST: mapped(400, JSON_RPC.pay),
  UNAUTHORIZED: mapped(401),
  /** No such route or resource. As a Pay API refusal relayed to a till: -32010. */
  NOT_FOUND: mapped(404, JSON_RPC.pay),
  METHOD_NOT_ALLOWED: mapped(405),
  REQUEST_TIMEOUT: mapped(408),
  /** The request's head is larger than the server accepts (Node's parser refused it). */
  REQUEST_HEADER_FIELDS_TOO_LARGE: mapped(431),
  PAYLOAD_TOO_LARGE: mapped(413),
  UNSUPPORTED_MEDIA_TYPE: mapped(415),
  /** The client closed the connection before its body ended: nobody is left to answer (nginx's 499). */
  CLIENT_CLOSED_REQUEST: mapped(499),
  /** A bug: logged, nothing about it is sent. */
  INTERNAL: mapped(500, JSON_RPC.internal),
  /** The server cannot answer now (draining, or the merchant's store is down): retry. */
  SERVICE_UNAVAILABLE: mapped(503),

  // The Pay API's refusals (openapi/pay.json), as the Pay client raises them (`PayError`).
  TOKEN_INVALID: mapped(409, JSON_RPC.pay),
  CARD_SESSION_INVALID: mapped(409, JSON_RPC.pay),
  IDEMPOTENCY_CONFLICT: mapped(409, JSON_RPC.pay),
  INVALID_STATE: mapped(409, JSON_RPC.pay),
  AMOUNT_MISMATCH: mapped(422, JSON_RPC.pay),
  /** The sandbox Pay API's outage (injected or real): retry. */
  UNAVAILABLE: mapped(503),
  /** The sandbox refused a /checkout for a card session whose invoice is still open. */
  INVOICE_OPEN: mapped(409),
  // The Pay client's own (`PayError`).
  /** No answer: refused, reset, dropped. */
  PAY_NETWORK: mapped(502, JSON_RPC.pay),
  /** No answer in time. */
  PAY_TIMEOUT: mapped(504, JSON_RPC.pay),
  /** The Pay API failed (5xx). */
  PAY_SERVER: mapped(502, JSON_RPC.pay),
  /** An answer the client cannot read. */
  PAY_PROTOCOL: mapped(502, JSON_RPC.pay),
  /** The configured profile has no path for the operation: nothing was sent. */
  PAY_UNSUPPORTED: mapped(502, JSON_RPC.pay),
  /** A refusal with a code the dialect does not map: nothing is retried. */
  PAY_REFUSED: mapped(502, JSON_RPC.pay),
  /** The configured token signer threw or answered no string: the call was not sent, the card is not blocked. */
  TOKEN_SIGNER_FAILED: mapped(502, JSON_RPC.pay),

  // The payment session (`PaymentSessionError`).
  SESSION_STATE: mapped(409, JSON_RPC.session),
  SESSION_BUSY: mapped(409, JSON_RPC.session),
  SESSION_OVER: mapped(409, JSON_RPC.session),
  RESCAN_FAILED: mapped(409, JSON_RPC.session),
  OUTCOME_UNKNOWN: mapped(504, JSON_RPC.session),
  ALREADY_PAID: mapped(409, JSON_RPC.session),
  UNKNOWN_TRANSACTION: mapped(409, JSON_RPC.session),

  // The cash desk server's payment intents (`PaymentsError`).
  PAY_NOT_CONFIGURED: mapped(503, JSON_RPC.payments),
  PAYMENT_NOT_FOUND: mapped(404, JSON_RPC.payments),
  BARCODE_REFUSED: mapped(422, JSON_RPC.payments),
  NO_RESCAN_PENDING: mapped(409, JSON_RPC.payments),
  PAYMENT_BUSY: mapped(503, JSON_RPC.payments),
  PAYMENT_MOVED: mapped(503, JSON_RPC.payments),
  PAYMENTS_CLOSED: mapped(503, JSON_RPC.payments),

  // The back office's refusals of a caller that authenticated (`BackOfficeError`).
  /** The back-office key lacks the scope the route needs. */
  SCOPE_MISSING: mapped(403),
  /** The refund is over the back-office key's `maxRefundAmount`. */
  REFUND_LIMIT_EXCEEDED: mapped(403),

  // The Push API and its client (`PushError`); BAD_REQUEST, UNAUTHORIZED, NOT_FOUND above.
  /** The document's 304: called earlier than the account allows (no body; the wait in `Retry-After`). */
  TOO_EARLY: mapped(304),
  PUSH_NETWORK: mapped(502),
  PUSH_TIMEOUT: mapped(504),
  PUSH_SERVER: mapped(502),
  PUSH_PROTOCOL: mapped(502),
  /** A campaign's progress file was made for another campaign. */
  PROGRESS_MISMATCH: mapped(400),
  /** A campaign's progress file cannot be read. */
  PROGRESS_INVALID: mapped(400),
  /** A campaign's numbers file cannot be read. */
  SOURCE_INVALID: mapped(400),
  /** The sandbox's push account login exists. */
  ACCOUNT_EXISTS: mapped(409),

  // The Loyalty API (openapi/loyalty.json, `LoyaltyError`) and its client (`LoyaltyClientError`).
  /** `setFavoriteCategories` named a group or category the card's list does not have. */
  UNKNOWN_CATEGORY: mapped(400),
  /** `setFavoriteCategories` chose more categories in a group than its `maxSelected`. */
  TOO_MANY_FAVORITES: mapped(400),
  /** The path or body names a card the merchant does not know. */
  CARD_NOT_FOUND: mapped(404),
  LOYALTY_NETWORK: mapped(502),
  LOYALTY_TIMEOUT: mapped(504),
  /** An answer outside the contract: wrong shape, unknown status code. */
  LOYALTY_PROTOCOL: mapped(502),
  // The sandbox's Loyalty console, facing a merchant's server.
  TARGET_NOT_CONFIGURED: mapped(409),
  PARTNER_KEY_UNKNOWN: mapped(409),
  MERCHANT_ERROR: mapped(502),
  MERCHANT_OFF_CONTRACT: mapped(502),
  MERCHANT_UNREACHABLE: mapped(502),
  /** An expectation of a conformance check was not met (the check's FAIL line). */
  CHECK_FAILED: mapped(500),

  // Webhooks (`WebhookError`).
  WEBHOOK_SECRET_INVALID: mapped(500),
  WEBHOOK_HEADERS_MISSING: mapped(400),
  WEBHOOK_TIMESTAMP_STALE: mapped(401),
  WEBHOOK_SIGNATURE_INVALID: mapped(401),
} as const satisfies Readonly<Record<string, ErrorCodeMapping>>;

/** Every error code of the kit. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** True when `value` is one of the kit's error codes. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

/** The HTTP status `code` is answered with. */
export function httpStatusOf(code: ErrorCode): number {
  return ERROR_CODES[code].http;
}

/** The JSON-RPC `error.code` `code` is answered with on the bridge. */
export function jsonRpcCodeOf(code: ErrorCode): number {
  return ERROR_CODES[code].jsonRpc;
}
