import type { PayDialect } from '../contracts/pay/dialect.js';
import { KitError } from '../errors.js';

/**
 * Why a Pay API call failed. Stable: branch on it, never on the message.
 * The first seven are the service's own codes (openapi/pay.json; the client
 * also raises `BAD_REQUEST` and `AMOUNT_MISMATCH` itself, before sending);
 * `PAY_NETWORK` (no answer: refused, reset, dropped), `PAY_TIMEOUT` (no answer in time),
 * `PAY_SERVER` (5xx), `PAY_PROTOCOL` (an answer the client cannot read: a 2xx lacking a
 * field the document names, or an error answer of an unknown kind) and
 * `PAY_UNSUPPORTED` (the operation has no path under profile `'document'`; nothing
 * was sent) are the client's. `PAY_REFUSED`: the service refused with a code its
 * dialect does not map (`serverCode` and `errors` hold its code and message):
 * the request had no effect the client knows of, nothing is retried.
 * `TOKEN_SIGNER_FAILED`: the configured signer threw or answered no string; nothing was sent.
 */
export type PayClientErrorCode =
  | 'TOKEN_INVALID'
  | 'BAD_REQUEST'
  | 'NOT_FOUND'
  | 'CARD_SESSION_INVALID'
  | 'IDEMPOTENCY_CONFLICT'
  | 'INVALID_STATE'
  | 'AMOUNT_MISMATCH'
  | 'PAY_NETWORK'
  | 'PAY_TIMEOUT'
  | 'PAY_SERVER'
  | 'PAY_PROTOCOL'
  | 'PAY_UNSUPPORTED'
  | 'PAY_REFUSED'
  | 'TOKEN_SIGNER_FAILED';

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
export class PayError extends KitError {
  declare readonly code: PayClientErrorCode;
  readonly httpStatus: number | undefined;
  readonly errors: readonly string[];
  readonly serverCode: string | undefined;
  readonly requestId: string | undefined;
  readonly path: string | undefined;
  readonly attempts: number;

  constructor(code: PayClientErrorCode, message: string, details: PayErrorDetails = {}, options?: ErrorOptions) {
    super(code, message, options);
    this.httpStatus = details.httpStatus;
    this.errors = details.errors ?? [];
    this.serverCode = details.serverCode;
    this.requestId = details.requestId;
    this.path = details.path;
    this.attempts = details.attempts ?? 1;
  }

  /** No answer, or a 5xx: the request may or may not have been processed. */
  get transient(): boolean {
    return this.code === 'PAY_NETWORK' || this.code === 'PAY_TIMEOUT' || this.code === 'PAY_SERVER';
  }

  /**
   * The request may have taken effect and its result is not known: no
   * answer, a 5xx, or a 2xx the client could not read (a /checkout answer
   * without transactionId: the invoice may exist, document section 7).
   */
  get outcomeUnknown(): boolean {
    return (
      this.transient ||
      (this.code === 'PAY_PROTOCOL' && this.httpStatus !== undefined && this.httpStatus >= 200 && this.httpStatus < 300)
    );
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The first string among the values (an array: its strings, for messages). */
function first(values: unknown[], lists: boolean): string[] {
  for (const value of values) {
    if (typeof value === 'string' && value !== '') return [value];
    if (lists && Array.isArray(value)) {
      const strings = value.filter((v): v is string => typeof v === 'string');
      if (strings.length > 0) return strings;
    }
  }
  return [];
}

/**
 * An error body's words, whatever its shape: the code is the first string
 * among `status`, `code`, `errorCode`, `error.code` and `error`; the message
 * the first among `message`, `errors` (a list, or one string),
 * `error.message` and `detail`. Words only: nothing else of the body is kept.
 */
export function errorWords(body: unknown): { code: string | undefined; messages: string[] } {
  if (!isObject(body)) return { code: undefined, messages: [] };
  const error = isObject(body.error) ? body.error : {};
  const [code] = first([body.status, body.code, body.errorCode, error.code, body.error], false);
  return { code: code?.slice(0, 128), messages: first([body.message, body.errors, error.message, body.detail], true) };
}

/**
 * The client code for an error answer, and whether its code was understood.
 * A code the dialect maps (the kit's own ones included) decides, whatever the
 * HTTP status (a 410 with a card session code is CARD_SESSION_INVALID). A 5xx
 * is PAY_SERVER and a 401 TOKEN_INVALID by their status alone. Another refusal
 * with a code the dialect does not map is PAY_REFUSED, the code kept; one with no
 * code at all falls back on its HTTP status.
 */
export function codeForAnswer(
  httpStatus: number,
  serverCode: string | undefined,
  dialect: PayDialect,
): { code: PayClientErrorCode; understood: boolean } {
  const mapped = serverCode === undefined ? undefined : dialect.codeOf(serverCode);
  if (mapped !== undefined) return { code: mapped, understood: true };
  // A word is only "not understood" where the session would branch on it: a 5xx is retried whatever it says.
  const understood = serverCode === undefined || httpStatus >= 500;
  if (httpStatus >= 500) return { code: 'PAY_SERVER', understood };
  if (httpStatus === 401) return { code: 'TOKEN_INVALID', understood };
  if (serverCode !== undefined) return { code: 'PAY_REFUSED', understood };
  if (httpStatus === 404) return { code: 'NOT_FOUND', understood };
  if (httpStatus === 400 || httpStatus === 413 || httpStatus === 415) return { code: 'BAD_REQUEST', understood };
  return { code: 'PAY_PROTOCOL', understood };
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
export class PaymentSessionError extends KitError {
  declare readonly code: PaymentSessionErrorCode;

  constructor(code: PaymentSessionErrorCode, message: string, options?: ErrorOptions) {
    super(code, message, options);
  }
}
