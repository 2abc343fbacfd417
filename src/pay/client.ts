import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type {
  AvailabilityRequest, AvailabilityResponse, AvailabilityTaskRequest, AvailabilityTaskResponse, CancelRequest,
  CheckoutRequest, CheckoutResponse, ReceiptRequest, ReceiptResponse, RefundRequest, RefundResponse, StatusRequest,
  TransactionState,
} from '../contracts/pay/bodies.js';
import { validationErrors } from '../contracts/errors.js';
import { TOKEN_HEADER } from '../contracts/pay/errors.js';
import { amountMismatch } from '../contracts/pay/amounts.js';
import type { Item } from '../contracts/pay/items.js';
import { backoffDelay, retryAfterMs } from './backoff.js';
import { ENDPOINTS, type Endpoint } from './endpoints.js';
import { codeForAnswer, PayError } from './errors.js';
import type { PayClientEvent } from './events.js';
import { type PayClientOptions, resolvePayClientOptions, type ResolvedPayClientOptions } from './options.js';

/** Per-call options; they override the client's. */
export interface PayCallOptions {
  /** This call's per-attempt timeout, in ms. */
  timeoutMs?: number;
  /** Aborts the call (and its retries); the call then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Largest number of retries for this call (safe operations only); 0 = none. */
  retries?: number;
}

/**
 * The Pay API, one method per operation. Each builds the body from the
 * contract schema (defaults filled, unknown fields refused), checks the amounts
 * rule before sending, signs the exact body text and sends exactly those bytes
 * with `X-Wallet-Token`. Errors are {@link PayError}s.
 */
export interface PayClient {
  /** POST /availability-info: providers and walletPayIsDefault for a card session. Retried when safe. */
  availability(body: AvailabilityRequest, options?: PayCallOptions): Promise<AvailabilityResponse>;
  /** POST /availability-info/task: registers the payment, shows the offers, answers the providers. Not retried. */
  availabilityTask(body: AvailabilityTaskRequest, options?: PayCallOptions): Promise<AvailabilityTaskResponse>;
  /** POST /checkout: idempotent by requestId, so retried with the same bytes. */
  checkout(body: CheckoutRequest, options?: PayCallOptions): Promise<CheckoutResponse>;
  /** POST /status by `{ transactionId }` or `{ requestId, cardSession }`. Retried. */
  status(body: StatusRequest, options?: PayCallOptions): Promise<TransactionState>;
  /** POST /cancel: answers the transaction's new state. Not retried (a repeat would be INVALID_STATE). */
  cancel(body: CancelRequest, options?: PayCallOptions): Promise<TransactionState>;
  /** POST /refund: idempotent by refundId, so retried. */
  refund(body: RefundRequest, options?: PayCallOptions): Promise<RefundResponse>;
  /** POST /receipt: forwards the receipt to the app. Not retried. */
  receipt(body: ReceiptRequest, options?: PayCallOptions): Promise<ReceiptResponse>;
}

type Attempt = { ok: true; value: unknown } | { ok: false; error: PayError; retryAfterMs: number; durationMs: number; httpRequestId: string };

const TIMED_OUT = Symbol('timeout');

class HttpPayClient implements PayClient {
  readonly #o: ResolvedPayClientOptions;
  readonly #urls: Map<string, string>;

  constructor(options: ResolvedPayClientOptions) {
    this.#o = options;
    this.#urls = new Map(Object.values(ENDPOINTS).map((e) => [e.path, options.baseUrl + e.path]));
  }

  availability(body: AvailabilityRequest, options?: PayCallOptions) { return this.#call<AvailabilityResponse>(ENDPOINTS.availability, body, options); }
  availabilityTask(body: AvailabilityTaskRequest, options?: PayCallOptions) { return this.#call<AvailabilityTaskResponse>(ENDPOINTS.availabilityTask, body, options); }
  checkout(body: CheckoutRequest, options?: PayCallOptions) { return this.#call<CheckoutResponse>(ENDPOINTS.checkout, body, options); }
  status(body: StatusRequest, options?: PayCallOptions) { return this.#call<TransactionState>(ENDPOINTS.status, body, options); }
  cancel(body: CancelRequest, options?: PayCallOptions) { return this.#call<TransactionState>(ENDPOINTS.cancel, body, options); }
  refund(body: RefundRequest, options?: PayCallOptions) { return this.#call<RefundResponse>(ENDPOINTS.refund, body, options); }
  receipt(body: ReceiptRequest, options?: PayCallOptions) { return this.#call<ReceiptResponse>(ENDPOINTS.receipt, body, options); }

  async #call<T>(endpoint: Endpoint, input: unknown, options: PayCallOptions = {}): Promise<T> {
    const bodyText = buildBody(endpoint, input);
    const maxRetries = endpoint.idempotent ? (options.retries ?? this.#o.retries.max) : 0;
    const timeoutMs = options.timeoutMs ?? this.#o.timeoutMs;
    for (let attempt = 1; ; attempt++) {
      const result = await this.#attempt(endpoint, bodyText, attempt, timeoutMs, options.signal);
      if (result.ok) return result.value as T;
      const { error } = result;
      const retry = error.transient && attempt <= maxRetries;
      const delay = retry ? backoffDelay(attempt, this.#o.retries, this.#o.random, result.retryAfterMs) : undefined;
      if (this.#o.onEvent) {
        this.#emit({ type: 'failure', ...eventBase(endpoint, attempt, result.httpRequestId), durationMs: result.durationMs, error, retryInMs: delay });
      }
      if (delay === undefined) throw error;
      await this.#o.sleep(delay, options.signal);
    }
  }

  async #attempt(endpoint: Endpoint, bodyText: string, attempt: number, timeoutMs: number, signal: AbortSignal | undefined): Promise<Attempt> {
    signal?.throwIfAborted();
    const path = endpoint.path;
    const httpRequestId = randomUUID();
    // A new token every attempt: the service refuses a jti it has seen, and the bytes are the same.
    const token = await this.#o.sign(bodyText);
    if (this.#o.onEvent) this.#emit({ type: 'request', ...eventBase(endpoint, attempt, httpRequestId) });
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(TIMED_OUT), timeoutMs);
    const onAbort = () => controller.abort(signal!.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const started = performance.now();
    let httpStatus: number;
    let text: string;
    let answerId: string | undefined;
    let retryAfter: string | null;
    try {
      const response = await this.#o.fetch(this.#urls.get(path)!, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token, 'x-request-id': httpRequestId },
        body: bodyText,
        signal: controller.signal,
      });
      httpStatus = response.status;
      answerId = response.headers.get('x-request-id') ?? undefined;
      retryAfter = response.headers.get('retry-after');
      text = await response.text();
    } catch (cause) {
      const durationMs = performance.now() - started;
      if (signal?.aborted) throw signal.reason;
      const timedOut = controller.signal.reason === TIMED_OUT;
      const details = { path, attempts: attempt, requestId: httpRequestId };
      const error = timedOut
        ? new PayError('TIMEOUT', `${path}: no answer within ${timeoutMs} ms`, details)
        : new PayError('NETWORK', `${path}: no answer (${describeNetworkError(cause)})`, details, { cause });
      return { ok: false, error, retryAfterMs: 0, durationMs, httpRequestId };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
    const durationMs = performance.now() - started;
    if (this.#o.onEvent) this.#emit({ type: 'response', ...eventBase(endpoint, attempt, httpRequestId), httpStatus, durationMs, requestId: answerId });
    const details = { path, attempts: attempt, requestId: answerId ?? httpRequestId, httpStatus };
    if (httpStatus >= 200 && httpStatus < 300) {
      const parsed = endpoint.response.safeParse(parseJson(text));
      if (parsed.success) return { ok: true, value: parsed.data };
      return { ok: false, error: new PayError('PROTOCOL', `${path}: the answer is not the contract's`, { ...details, errors: validationErrors(parsed.error) }), retryAfterMs: 0, durationMs, httpRequestId };
    }
    const envelope = asEnvelope(parseJson(text));
    const code = codeForAnswer(httpStatus, envelope?.status);
    const errors = envelope?.errors ?? [];
    const message = `${path}: ${httpStatus} ${envelope?.status ?? code}${errors.length > 0 ? `: ${errors.join('; ')}` : ''}`;
    return {
      ok: false,
      error: new PayError(code, message, { ...details, errors, serverCode: envelope?.status }),
      retryAfterMs: retryAfterMs(retryAfter, Date.now()),
      durationMs,
      httpRequestId,
    };
  }

  #emit(event: PayClientEvent): void {
    try {
      this.#o.onEvent!(event);
    } catch {
      // An observer's bug must not turn a good call into a failed one.
    }
  }
}

function eventBase(endpoint: Endpoint, attempt: number, httpRequestId: string) {
  return { operation: endpoint.operation, path: endpoint.path, attempt, httpRequestId };
}

/** The JSON text to sign and send: the contract's output (defaults filled), in its field order. */
function buildBody(endpoint: Endpoint, input: unknown): string {
  const parsed = endpoint.request.safeParse(input);
  if (!parsed.success) {
    const errors = validationErrors(parsed.error as z.ZodError);
    throw new PayError('BAD_REQUEST', `${endpoint.path}: not sent, the body is invalid: ${errors.join('; ')}`, { errors, path: endpoint.path, attempts: 0 });
  }
  const body = parsed.data as { items?: Item[]; discountAmount?: number; totalAmount?: number };
  if (endpoint.amounts && body.items !== undefined) {
    const line = amountMismatch(body.items, body.discountAmount!, body.totalAmount!);
    if (line !== undefined) throw new PayError('AMOUNT_MISMATCH', `${endpoint.path}: not sent: ${line}`, { errors: [line], path: endpoint.path, attempts: 0 });
  }
  return JSON.stringify(body);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function asEnvelope(value: unknown): { status: string; errors: string[] } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { status, errors } = value as { status?: unknown; errors?: unknown };
  if (typeof status !== 'string') return undefined;
  return { status, errors: Array.isArray(errors) ? errors.filter((e): e is string => typeof e === 'string') : [] };
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } })?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : 'network error';
}

/**
 * Creates a Pay API client. Safe calls (/checkout, /status, /refund,
 * /availability-info) are retried on no answer or 5xx with jittered backoff;
 * every attempt gets a fresh token over the same bytes.
 *
 * @example
 * const pay = createPayClient({ baseUrl: 'http://127.0.0.1:8090', verifier });
 * const { transactionId } = await pay.checkout({ requestId, cardSession, items, discountAmount: 0, totalAmount: 15000 });
 */
export function createPayClient(options: PayClientOptions): PayClient {
  return new HttpPayClient(resolvePayClientOptions(options));
}
