import { PAY_ERROR_STATUS, type PayErrorCode as ServerCode } from '../contracts/pay/errors.js';

/**
 * Why a Pay API call failed. Stable: branch on it, never on the message.
 * The first seven are the service's own codes (DESIGN.md section 3; the client
 * also raises `BAD_REQUEST` and `AMOUNT_MISMATCH` itself, before sending);
 * `NETWORK` (no answer: refused, reset, dropped), `TIMEOUT` (no answer in time),
 * `SERVER` (5xx), `PROTOCOL` (an answer the client cannot read: a 2xx lacking a
 * field the document names, or an error answer of an unknown kind) and
 * `UNSUPPORTED` (the operation has no path under profile `'document'`; nothing
 * was sent) are the client's.
 */
export type PayClientErrorCode =
  | 'TOKEN_INVALID'
  | 'BAD_REQUEST'
  | 'NOT_FOUND'
  | 'CARD_SESSION_INVALID'
  | 'IDEMPOTENCY_CONFLICT'
  | 'INVALID_STATE'
  | 'AMOUNT_MISMATCH'
  | 'NETWORK'
  | 'TIMEOUT'
  | 'SERVER'
  | 'PROTOCOL'
  | 'UNSUPPORTED';

/** What a {@link PayError} knows besides its code. */
export interface PayErrorDetails {
  /** The HTTP status of the answer; undefined when nothing was sent or no answer came. */
  httpStatus?: number;
  /** The envelope's `errors[]` (`<field>: <message>` lines), or the client's own lines. */
  errors?: readonly string[];
  /** The envelope's `status` as the server wrote it (e.g. `UNAVAILABLE` on a 503). */
  serverCode?: string;
  /** `x-request-id` of the answer; without an answer, the one the client sent. Quote it to support. */
  requestId?: string;
  /** The API path called, e.g. `/checkout`. */
  path?: string;
  /** How many attempts were made (1 when not retried). */
  attempts?: number;
}

/**
 * A failed Pay API call: a refusal from the service, a refusal by the client
 * before sending (bad body, amounts rule), or no usable answer. Messages never
 * carry tokens or bodies.
 *
 * @example
 * try { await pay.checkout(body) } catch (e) {
 *   if (e instanceof PayError && e.code === 'CARD_SESSION_INVALID') askTillToRescan();
 * }
 */
export class PayError extends Error {
  readonly code: PayClientErrorCode;
  readonly httpStatus: number | undefined;
  readonly errors: readonly string[];
  readonly serverCode: string | undefined;
  readonly requestId: string | undefined;
  readonly path: string | undefined;
  readonly attempts: number;

  constructor(code: PayClientErrorCode, message: string, details: PayErrorDetails = {}, options?: ErrorOptions) {
    super(message, options);
    this.name = 'PayError';
    this.code = code;
    this.httpStatus = details.httpStatus;
    this.errors = details.errors ?? [];
    this.serverCode = details.serverCode;
    this.requestId = details.requestId;
    this.path = details.path;
    this.attempts = details.attempts ?? 1;
  }

  /** No answer, or a 5xx: the request may or may not have been processed. */
  get transient(): boolean {
    return this.code === 'NETWORK' || this.code === 'TIMEOUT' || this.code === 'SERVER';
  }

  /**
   * The request may have taken effect and its result is not known: no
   * answer, a 5xx, or a 2xx the client could not read (a /checkout answer
   * without transactionId: the invoice may exist, document section 7).
   */
  get outcomeUnknown(): boolean {
    return this.transient || (this.code === 'PROTOCOL' && this.httpStatus !== undefined && this.httpStatus >= 200 && this.httpStatus < 300);
  }
}

const SERVER_CODES = new Set<string>(Object.keys(PAY_ERROR_STATUS));

/** The client code for an error answer: the envelope's own code when it is a Pay code, else by HTTP status. */
export function codeForAnswer(httpStatus: number, serverCode: string | undefined): PayClientErrorCode {
  if (serverCode !== undefined && SERVER_CODES.has(serverCode)) return serverCode as ServerCode;
  if (httpStatus >= 500) return 'SERVER';
  if (httpStatus === 401) return 'TOKEN_INVALID';
  if (httpStatus === 404) return 'NOT_FOUND';
  if (httpStatus === 400 || httpStatus === 413 || httpStatus === 415) return 'BAD_REQUEST';
  return 'PROTOCOL';
}

/**
 * Why a payment session refused or stopped. `SESSION_STATE`: the method does
 * not apply in the session's phase; `SESSION_BUSY`: another operation is
 * running; `SESSION_OVER`: refunded, blocked or abandoned, a rescan starts anew;
 * `RESCAN_FAILED`: the till could not give a new card session;
 * `OUTCOME_UNKNOWN`: no answer even after recovery, `recover()` later repeats the
 * same requestId; `ALREADY_PAID`: the payment succeeded before it could be cancelled;
 * `UNKNOWN_TRANSACTION`: a refund named a transaction that is not the session's.
 */
export type PaymentSessionErrorCode =
  | 'SESSION_STATE'
  | 'SESSION_BUSY'
  | 'SESSION_OVER'
  | 'RESCAN_FAILED'
  | 'OUTCOME_UNKNOWN'
  | 'ALREADY_PAID'
  | 'UNKNOWN_TRANSACTION';

/**
 * A payment session refusal. `cause` holds the {@link PayError} behind it, if any.
 *
 * @example
 * catch (e) { if (e instanceof PaymentSessionError && e.code === 'OUTCOME_UNKNOWN') await session.recover() }
 */
export class PaymentSessionError extends Error {
  readonly code: PaymentSessionErrorCode;

  constructor(code: PaymentSessionErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'PaymentSessionError';
    this.code = code;
  }
}
