import type { Logger } from 'pino';
import { paymentRefusal } from '../../src/cashdesk/payments/errors.js';
import { DATABASE_RETRY_AFTER_SECONDS, KitError, type KitErrorCode } from '../../src/errors.js';
import { JsonRpcErrorCode, type JsonRpcErrorObject } from './jsonrpc.js';

/**
 * The fixed JSON-RPC code of each kit error a call can raise. Tills branch on
 * `error.data.code` (the `KitError#code`); the number is there for generic
 * JSON-RPC clients. Any kit error not listed answers -32000.
 */
export const KIT_ERROR_RPC_CODES: Readonly<Partial<Record<KitErrorCode, number>>> = {
  REQUEST_DATA_INVALID: JsonRpcErrorCode.RequestDataInvalid,
  STORE_UNAVAILABLE: JsonRpcErrorCode.StoreUnavailable,
  VERIFIER_CLOSED: JsonRpcErrorCode.VerifierClosed,
  DATABASE_UNAVAILABLE: JsonRpcErrorCode.DatabaseUnavailable,
};

/**
 * The JSON-RPC code of a refused `pay.*` call, by where the refusal came from;
 * `data.code` holds the stable code (`CARD_SESSION_INVALID`, `SESSION_STATE`, `PAYMENT_NOT_FOUND`...).
 */
export const PAYMENT_RPC_CODES = {
  /** The Pay API refused, or gave no usable answer (a `PayError` code). */
  pay: -32010,
  /** Not allowed in the payment's phase, or no answer even after recovery (a `PaymentSessionError` code). */
  session: -32011,
  /** The cash desk server refused (a `PaymentsError` code: PAYMENT_NOT_FOUND, BARCODE_REFUSED, ...). */
  payments: -32012,
} as const;

/**
 * Kit errors that are the server's trouble, not the till's: worth an operator's attention. Not
 * DATABASE_UNAVAILABLE: the dispatcher's DatabaseNotice tells it once per outage, not per call.
 */
const OPERATIONAL: ReadonlySet<KitErrorCode> = new Set(['STORE_UNAVAILABLE', 'VERIFIER_CLOSED', 'BACKEND_UNAVAILABLE']);

/**
 * The `error` member for an exception thrown by a method. A `KitError` keeps
 * its message (kit messages never carry keys or request content) and its
 * code; anything else is a bug: logged in full here, answered as a bare
 * -32603 so nothing about the server's internals reaches the till. Every
 * one carries `requestId` in `data`, and so do its log lines (`reqId`).
 */
export function errorForException(error: unknown, log: Logger, method: string, requestId: string): JsonRpcErrorObject {
  if (error instanceof KitError) {
    const level = OPERATIONAL.has(error.code) ? 'warn' : 'debug';
    log[level]({ reqId: requestId, method, code: error.code }, 'bridge call refused by the kit');
    const retry = error.code === 'DATABASE_UNAVAILABLE' ? { retryAfterMs: DATABASE_RETRY_AFTER_SECONDS * 1000 } : {};
    return {
      code: KIT_ERROR_RPC_CODES[error.code] ?? JsonRpcErrorCode.ServerError,
      message: error.message,
      data: { code: error.code, requestId, ...retry },
    };
  }
  const refusal = paymentRefusal(error);
  if (refusal !== undefined) {
    log.debug({ reqId: requestId, method, code: refusal.code }, 'bridge payment call refused');
    return {
      code: PAYMENT_RPC_CODES[refusal.source], message: refusal.message,
      data: { code: refusal.code, ...(refusal.errors.length > 0 ? { errors: [...refusal.errors] } : {}), requestId },
    };
  }
  log.error({ err: error, reqId: requestId, method }, 'bridge call failed unexpectedly');
  return { ...internalError(), data: { code: 'INTERNAL_ERROR', requestId } };
}

/** The answer to a bug: no message, no stack, nothing but the fact. */
export function internalError(): JsonRpcErrorObject {
  return { code: JsonRpcErrorCode.InternalError, message: 'Internal error', data: { code: 'INTERNAL_ERROR' } };
}
