import type { AuditCaller } from '../cashdesk/back-office/audit-context.js';
import { paymentRefusal, RelayedRefusal, type PaymentRefusal } from '../cashdesk/payments/errors.js';
import type { SessionUpdate } from '../contracts/cashdesk-payments.js';
import type { PglitePreload } from '../db/pglite-preload.js';
import { KitError, type KitErrorCode } from '../errors.js';
import type { PayOperation } from '../pay/events.js';
import type { PaymentsConfig } from './payments.js';

/** What the payments thread starts with (structured-cloned). */
export interface PaymentsWorkerData {
  config: PaymentsConfig;
  /** The server logger's level: the thread's lines go back to it, only those it would write. */
  logLevel: string;
  /** How much lower than the main thread's the payment thread's priority is (Linux niceness steps; 0: the same). */
  niceness: number;
  /** The module that sets up this process's OpenTelemetry SDK in the thread too (`setThreadTelemetry`), if any. */
  telemetry?: string;
  /** PGlite compiled once per process by the main thread (an in-process database only), not again per thread. */
  pglite?: PglitePreload;
}

/** An error as it crosses threads: a payment refusal or a kit error keeps what transports branch on. */
export type WireError =
  | { kind: 'refusal'; refusal: PaymentRefusal }
  | { kind: 'kit'; code: KitErrorCode; message: string }
  | { kind: 'error'; name: string; message: string; stack?: string };

/**
 * The payments' calls by name, their arguments data: `intent` carries any till's payment intent (its name, the
 * till, its params: see `PAYMENT_INTENTS`); the others are the server's and the back office's own.
 */
export type PaymentsCall =
  | 'init'
  | 'intent'
  | 'search'
  | 'recordAudit'
  | 'readAudit'
  | 'reconciliation'
  | 'dayClose'
  | 'subscribe'
  | 'webhook'
  | 'ping'
  | 'close';

/** Main thread to payments thread. */
export type ToPayments =
  | {
      type: 'call';
      id: number;
      call: PaymentsCall;
      args: unknown[];
      /** The id of the request that made the call. */
      requestId?: string;
      /** The W3C traceparent of the span that made the call, when tracing: the thread's spans are its children. */
      traceparent?: string;
      /** Who made the call (withAuditCaller), when known: the audit records the thread writes name them. */
      caller?: AuditCaller;
    }
  | { type: 'unsubscribe'; subscription: number }
  | { type: 'answer'; id: number; ok: true; value: unknown }
  | { type: 'answer'; id: number; ok: false; error: WireError };

/** Payments thread to main thread. */
export type FromPayments =
  | { type: 'ready'; databaseKind: 'pglite' | 'postgres' }
  | { type: 'failed'; error: WireError }
  | { type: 'result'; id: number; ok: true; value: unknown }
  | { type: 'result'; id: number; ok: false; error: WireError }
  | { type: 'update'; subscription: number; update: SessionUpdate }
  // `till`: for whose payment a scan is verified (that till's own earlier verification of it is the same scan); ''
  // for a token.
  | { type: 'ask'; id: number; what: 'verify' | 'token'; arg: string; till: string }
  | { type: 'log'; line: string }
  /** The thread's view of its database and channel changed (`down`: why it is unhealthy; absent: healthy). */
  | { type: 'health'; down?: string }
  /** A word the Pay dialect does not know: counted in the main thread's metrics (`GET /metrics` is served there). */
  | { type: 'count'; kind: 'status' | 'code'; operation: PayOperation }
  /** The background comparison's discrepancies left to act on, by kind (`wpk_pay_discrepancies` is served there). */
  | { type: 'discrepancies'; counts: Record<string, number> };

/** A webhook request as it crosses threads, and its answer. */
export interface WireRequest {
  headers: Array<[string, string]>;
  body: Uint8Array<ArrayBuffer>;
}
export interface WireResponse {
  status: number;
  headers: Array<[string, string]>;
  body: Uint8Array<ArrayBuffer>;
}

/** A message's headers as name-value pairs (structured clone does not carry `Headers`). */
export function headerPairs(headers: Headers): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  headers.forEach((value, name) => {
    pairs.push([name, value]);
  });
  return pairs;
}

/** The error to send across. */
export function toWire(error: unknown): WireError {
  const refusal = paymentRefusal(error);
  if (refusal !== undefined) return { kind: 'refusal', refusal: { ...refusal, errors: [...refusal.errors] } };
  if (error instanceof KitError) return { kind: 'kit', code: error.code, message: error.message };
  const e = error instanceof Error ? error : new Error(String(error));
  return { kind: 'error', name: e.name, message: e.message, ...(e.stack === undefined ? {} : { stack: e.stack }) };
}

/** The error received: a refusal as {@link RelayedRefusal}, a kit error as a `KitError` with its code. */
export function fromWire(wire: WireError): Error {
  if (wire.kind === 'refusal') return new RelayedRefusal(wire.refusal);
  if (wire.kind === 'kit') return new KitError(wire.code, wire.message);
  const error = new Error(wire.message);
  error.name = wire.name;
  if (wire.stack !== undefined) error.stack = wire.stack;
  return error;
}
