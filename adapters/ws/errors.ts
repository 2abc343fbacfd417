import type { Logger } from 'pino';
import { paymentRefusal } from '../../src/cashdesk/payments/errors.js';
import { DATABASE_RETRY_AFTER_SECONDS, KitError, type KitErrorCode } from '../../src/errors.js';
import { JSON_RPC, jsonRpcCodeOf } from '../../src/errors/codes.js';
import { JsonRpcErrorCode, type JsonRpcErrorObject } from './jsonrpc.js';

/**
 * The kit errors a call can raise that have a JSON-RPC code of their own (from
 * src/errors/codes.ts, like every code's). Tills branch on `error.data.code` (the
 * `KitError#code`); the number is there for generic JSON-RPC clients.
 */
export const KIT_ERROR_RPC_CODES: Readonly<Partial<Record<KitErrorCode, number>>> = {
  REQUEST_DATA_INVALID: jsonRpcCodeOf('REQUEST_DATA_INVALID'),
  STORE_UNAVAILABLE: jsonRpcCodeOf('STORE_UNAVAILABLE'),
  VERIFIER_CLOSED: jsonRpcCodeOf('VERIFIER_CLOSED'),
  DATABASE_UNAVAILABLE: jsonRpcCodeOf('DATABASE_UNAVAILABLE'),
};

/**
 * The JSON-RPC code of a refused `pay.*` call, by where the refusal came from;
 * `data.code` holds the stable code (`CARD_SESSION_INVALID`, `SESSION_STATE`, `PAYMENT_NOT_FOUND`...).
 */
export const PAYMENT_RPC_CODES = {
  /** The Pay API refused, or gave no usable answer (a `PayError` code). */
  pay: JSON_RPC.pay,
  /** Not allowed in the payment's phase, or no answer even after recovery (a `PaymentSessionError` code). */
  session: JSON_RPC.session,
  /** The cash desk server refused (a `PaymentsError` code: PAYMENT_NOT_FOUND, BARCODE_REFUSED, ...). */
  payments: JSON_RPC.payments,
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
  const refusal = paymentRefusal(error);
  if (refusal !== undefined) {
    log.debug({ reqId: requestId, method, code: refusal.code }, 'bridge payment call refused');
    return {
      code: jsonRpcCodeOf(refusal.code),
      message: refusal.message,
      data: { code: refusal.code, ...(refusal.errors.length > 0 ? { errors: [...refusal.errors] } : {}), requestId },
    };
  }
  if (error instanceof KitError) {
    const level = OPERATIONAL.has(error.code) ? 'warn' : 'debug';
    log[level]({ reqId: requestId, method, code: error.code }, 'bridge call refused by the kit');
    const retry = error.code === 'DATABASE_UNAVAILABLE' ? { retryAfterMs: DATABASE_RETRY_AFTER_SECONDS * 1000 } : {};
    return { code: jsonRpcCodeOf(error.code), message: error.message, data: { code: error.code, requestId, ...retry } };
  }
  log.error({ err: error, reqId: requestId, method }, 'bridge call failed unexpectedly');
  return { ...internalError(), data: { code: 'INTERNAL', requestId } };
}

/** The answer to a bug: no message, no stack, nothing but the fact (`INTERNAL`, as over HTTP). */
export function internalError(): JsonRpcErrorObject {
  return { code: JsonRpcErrorCode.InternalError, message: 'Internal error', data: { code: 'INTERNAL' } };
}
