import { randomUUID } from 'node:crypto';
import { currentRequestId } from '../log/request-id.js';
import type { z } from 'zod';
import type {
  AvailabilityAnswer, AvailabilityTaskAnswer, CheckoutAnswer, ReceiptAnswer, RefundAnswer, TransactionAnswer,
} from '../contracts/pay/answers.js';
import type {
  AvailabilityRequest, AvailabilityTaskRequest, CancelRequest, CheckoutRequest, ReceiptRequest, RefundRequest, StatusRequest,
  TransactionRef,
} from '../contracts/pay/bodies.js';
import { classed, type PayDialect } from '../contracts/pay/dialect.js';
import { isUnderstood } from '../contracts/pay/reader.js';
import { validationErrors } from '../contracts/errors.js';
import { amountMismatch } from '../contracts/pay/amounts.js';
import type { Item } from '../contracts/pay/items.js';
import { backoffDelay, retryAfterMs } from './backoff.js';
import { DOCUMENT_FALLBACK, ENDPOINTS, type Endpoint } from './endpoints.js';
import { codeForAnswer, errorWords, PayError } from './errors.js';
import type { PayClientEvent, PayOperation } from './events.js';
import { type PayClientOptions, type PayProfile, resolvePayClientOptions, type ResolvedPayClientOptions } from './options.js';

/** Per-call options; they override the client's. */
export interface PayCallOptions {
  /** This call's per-attempt timeout, in ms. */
  timeoutMs?: number;
  /** Aborts the call (and its retries); the call then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Largest number of retries for this call (safe operations only); 0 = none. */
  retries?: number;
}

/** A transactionId as the service wrote it (text or a JSON number), sent back in that JSON type. */
type Ref<T> = T extends { transactionId: string } ? Omit<T, 'transactionId'> & { transactionId: TransactionRef } : T;
/** A /status body: by transactionId (as the service wrote it) or, profile `'kit'`, by requestId and cardSession. */
export type StatusInput = Ref<StatusRequest>;
/** A /cancel body. */
export type CancelInput = Ref<CancelRequest>;
/** A /receipt body. */
export type ReceiptInput = Ref<ReceiptRequest>;
/** A /refund body: `refundId` is the kit's (required under profile `'kit'`, refused under `'document'`). */
export type RefundInput = Omit<RefundRequest, 'refundId' | 'transactionId'> & { refundId?: string; transactionId: TransactionRef };

/**
 * The Pay API, one method per operation. Each checks the body against the
 * contract (and, under profile `'document'`, against the fields the interface
 * document names) and the amounts rule before sending, sends only the fields
 * the caller gave, signs the exact body text and sends exactly those bytes
 * with the token header. Answers are read tolerantly (see
 * `responseNotUnderstood`). Errors are {@link PayError}s.
 */
export interface PayClient {
  /** Which API the client speaks: `'kit'` or `'document'`. */
  readonly profile: PayProfile;
  /** The service's words (the configured dialect over the kit's): how statuses are classed and refusals read. */
  readonly dialect: PayDialect;
  /** POST /availability-info: providers and walletPayIsDefault for a card session. Retried when safe. */
  availability(body: AvailabilityRequest, options?: PayCallOptions): Promise<AvailabilityAnswer>;
  /** POST /availability-info/task: registers the payment, shows the offers, answers the providers. Not retried. */
  availabilityTask(body: AvailabilityTaskRequest, options?: PayCallOptions): Promise<AvailabilityTaskAnswer>;
  /** POST /checkout: idempotent by requestId and cardSession, so retried with the same bytes. */
  checkout(body: CheckoutRequest, options?: PayCallOptions): Promise<CheckoutAnswer>;
  /** POST /status by `{ transactionId }` or (profile `'kit'`) `{ requestId, cardSession }`. Retried. */
  status(body: StatusInput, options?: PayCallOptions): Promise<TransactionAnswer>;
  /** POST /cancel: answers the transaction's new state. Not retried (a repeat would be INVALID_STATE). */
  cancel(body: CancelInput, options?: PayCallOptions): Promise<TransactionAnswer>;
  /** POST /refund: under `'kit'` idempotent by refundId, so retried; under `'document'` never retried. */
  refund(body: RefundInput, options?: PayCallOptions): Promise<RefundAnswer>;
  /** POST /receipt: forwards the receipt to the app. Not retried. */
  receipt(body: ReceiptInput, options?: PayCallOptions): Promise<ReceiptAnswer>;
}

/** How this client calls one operation under its profile; null: no path (UNSUPPORTED). */
interface Route {
  endpoint: Endpoint;
  path: string;
  url: string;
  request: z.ZodType;
  idempotent: boolean;
}

type Attempt = { ok: true; value: unknown } | { ok: false; error: PayError; retryAfterMs: number; durationMs: number; httpRequestId: string };

const TIMED_OUT = Symbol('timeout');

class HttpPayClient implements PayClient {
  readonly #o: ResolvedPayClientOptions;
  readonly #routes: Map<PayOperation, Route | null>;

  constructor(options: ResolvedPayClientOptions) {
    this.#o = options;
    this.#routes = new Map(Object.values(ENDPOINTS).map((e) => [e.operation, routeOf(e, options)]));
  }

  get profile(): PayProfile { return this.#o.profile; }
  get dialect(): PayDialect { return this.#o.dialect; }

  availability(body: AvailabilityRequest, options?: PayCallOptions) { return this.#call<AvailabilityAnswer>('availability', body, options); }
  availabilityTask(body: AvailabilityTaskRequest, options?: PayCallOptions) { return this.#call<AvailabilityTaskAnswer>('availabilityTask', body, options); }
  checkout(body: CheckoutRequest, options?: PayCallOptions) { return this.#call<CheckoutAnswer>('checkout', body, options); }
  status(body: StatusInput, options?: PayCallOptions) { return this.#call<TransactionAnswer>('status', body, options); }
  cancel(body: CancelInput, options?: PayCallOptions) { return this.#call<TransactionAnswer>('cancel', body, options); }
  refund(body: RefundInput, options?: PayCallOptions) { return this.#call<RefundAnswer>('refund', body, options); }
  receipt(body: ReceiptInput, options?: PayCallOptions) { return this.#call<ReceiptAnswer>('receipt', body, options); }

  async #call<T>(operation: PayOperation, input: unknown, options: PayCallOptions = {}): Promise<T> {
    const route = this.#routes.get(operation);
    if (!route) {
      throw new PayError('UNSUPPORTED', `${operation}: the interface document shows no path for it; give paths.${operation} to use it under profile 'document'`,
        { attempts: 0 });
    }
    const body = buildBody(route, input, this.#o.profile);
    const maxRetries = route.idempotent ? (options.retries ?? this.#o.retries.max) : 0;
    const timeoutMs = options.timeoutMs ?? this.#o.timeoutMs;
    for (let attempt = 1; ; attempt++) {
      const result = await this.#attempt(route, body, attempt, timeoutMs, options.signal);
      if (result.ok) return result.value as T;
      const { error } = result;
      const retry = error.transient && attempt <= maxRetries;
      const delay = retry ? backoffDelay(attempt, this.#o.retries, this.#o.random, result.retryAfterMs) : undefined;
      if (this.#o.onEvent) {
        this.#emit({ type: 'failure', ...eventBase(route, attempt, result.httpRequestId), durationMs: result.durationMs, error, retryInMs: delay });
      }
      if (delay === undefined) throw error;
      await this.#o.sleep(delay, options.signal);
    }
  }

  async #attempt(route: Route, body: Body, attempt: number, timeoutMs: number, signal: AbortSignal | undefined): Promise<Attempt> {
    signal?.throwIfAborted();
    const { path } = route;
    // The id of the request this call serves (the cash desk's payment route, see withRequestId), so one id
    // follows a payment through both servers' logs; else one per attempt.
    const httpRequestId = currentRequestId() ?? randomUUID();
    // A new token every attempt: the service refuses a jti it has seen, and the bytes are the same.
    const token = await this.#o.sign(body.text, { operation: route.endpoint.operation, path });
    if (this.#o.onEvent) this.#emit({ type: 'request', ...eventBase(route, attempt, httpRequestId) });
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
      const response = await this.#o.fetch(route.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [this.#o.tokenHeader]: token, 'x-request-id': httpRequestId },
        body: body.text,
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
    if (this.#o.onEvent) this.#emit({ type: 'response', ...eventBase(route, attempt, httpRequestId), httpStatus, durationMs, requestId: answerId });
    const details = { path, attempts: attempt, requestId: answerId ?? httpRequestId, httpStatus };
    if (httpStatus >= 200 && httpStatus < 300) {
      const reading = route.endpoint.read(parseJson(text), body.sent);
      if (this.#o.onEvent && !isUnderstood(reading.notUnderstood)) {
        this.#emit({ type: 'responseNotUnderstood', ...eventBase(route, attempt, httpRequestId), httpStatus, ...reading.notUnderstood });
      }
      if (reading.ok) return { ok: true, value: this.#classed(route, attempt, httpRequestId, httpStatus, reading.value) };
      const error = new PayError('PROTOCOL', `${path}: the answer lacks what the interface document requires`, { ...details, errors: reading.errors });
      return { ok: false, error, retryAfterMs: 0, durationMs, httpRequestId };
    }
    const words = errorWords(parseJson(text));
    const { code, understood } = codeForAnswer(httpStatus, words.code, this.#o.dialect);
    if (!understood && this.#o.onEvent) {
      this.#emit({
        type: 'codeNotUnderstood', ...eventBase(route, attempt, httpRequestId), httpStatus, code: words.code!, messages: words.messages,
      });
    }
    const errors = words.messages;
    const message = `${path}: ${httpStatus} ${words.code ?? code}${errors.length > 0 ? `: ${errors.join('; ')}` : ''}`;
    return {
      ok: false,
      error: new PayError(code, message, { ...details, errors, serverCode: words.code }),
      retryAfterMs: retryAfterMs(retryAfter, Date.now()),
      durationMs,
      httpRequestId,
    };
  }

  /**
   * A transaction's status classed by the dialect (whatever class the service itself wrote), and reported when
   * the dialect does not know the word: the answer is still good, its status kept as written.
   */
  #classed(route: Route, attempt: number, httpRequestId: string, httpStatus: number, value: unknown): unknown {
    const { operation } = route.endpoint;
    if (operation !== 'status' && operation !== 'cancel') return value;
    const state = classed(this.#o.dialect, value as TransactionAnswer);
    if (state.statusClass !== undefined) return state;
    if (this.#o.onEvent) {
      this.#emit({
        type: 'statusNotUnderstood', ...eventBase(route, attempt, httpRequestId), httpStatus,
        transactionId: state.transactionId, status: state.status,
      });
    }
    return state;
  }

  #emit(event: PayClientEvent): void {
    try {
      this.#o.onEvent!(event);
    } catch {
      // An observer's bug must not turn a good call into a failed one.
    }
  }
}

function eventBase(route: Route, attempt: number, httpRequestId: string) {
  return { operation: route.endpoint.operation, path: route.path, attempt, httpRequestId };
}

/** The operation under the client's profile and paths. */
function routeOf(endpoint: Endpoint, o: ResolvedPayClientOptions): Route | null {
  const path = o.paths[endpoint.operation] ?? endpoint.path;
  if (o.profile === 'kit') return { endpoint, path, url: o.baseUrl + path, request: endpoint.request, idempotent: endpoint.idempotent };
  const use = endpoint.document ?? (o.paths[endpoint.operation] ? DOCUMENT_FALLBACK[endpoint.operation] : undefined);
  return use ? { endpoint, path, url: o.baseUrl + path, request: use.request, idempotent: use.idempotent } : null;
}

/** What goes on the wire: the exact text, and the object it was made from (answers are read against it). */
interface Body {
  text: string;
  sent: Record<string, unknown>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Only what the caller gave: the checked output (its field order) without
 * the fields the schema filled in, so no default (`measure: "PIECE"`) reaches
 * a service that does not know it.
 */
function given(input: unknown, output: unknown): unknown {
  if (Array.isArray(input) && Array.isArray(output)) return output.map((o, i) => given(input[i], o));
  if (!isObject(input) || !isObject(output)) return output;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(output)) if (input[key] !== undefined) out[key] = given(input[key], value);
  return out;
}

/** The JSON text to sign and send, refused (nothing sent) when invalid, outside the profile or against the amounts rule. */
function buildBody(route: Route, input: unknown, profile: PayProfile): Body {
  const { path } = route;
  const refuse = (errors: string[]) => {
    throw new PayError('BAD_REQUEST', `${path}: not sent, the body is invalid: ${errors.join('; ')}`, { errors, path, attempts: 0 });
  };
  if (profile === 'document' && isObject(input)) {
    const shape = (route.request as z.ZodObject).shape;
    const foreign = Object.keys(input).filter((k) => input[k] !== undefined && !Object.hasOwn(shape, k));
    if (foreign.length > 0) refuse(foreign.map((k) => `${k}: not a field of the interface document for ${path} (profile 'document')`));
  }
  const parsed = route.request.safeParse(input);
  if (!parsed.success) refuse(validationErrors(parsed.error as z.ZodError));
  const body = parsed.data as { items?: Item[]; discountAmount?: number; totalAmount?: number };
  if (route.endpoint.amounts && body.items !== undefined) {
    const line = amountMismatch(body.items, body.discountAmount!, body.totalAmount!);
    if (line !== undefined) throw new PayError('AMOUNT_MISMATCH', `${path}: not sent: ${line}`, { errors: [line], path, attempts: 0 });
  }
  const sent = given(input, body) as Record<string, unknown>;
  return { text: JSON.stringify(sent), sent };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } })?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : 'network error';
}

/**
 * Creates a Pay API client. Safe calls (/checkout, /status, /availability-info,
 * and /refund under profile `'kit'`) are retried on no answer or 5xx with
 * jittered backoff; every attempt gets a fresh token over the same bytes.
 *
 * @example
 * const pay = createPayClient({ baseUrl: 'http://127.0.0.1:8090', verifier, onEvent: (e) => e.type === 'responseNotUnderstood' && log.warn(e) });
 * const { transactionId } = await pay.checkout({ requestId, cardSession, items, discountAmount: 0, totalAmount: 15000 });
 */
export function createPayClient(options: PayClientOptions): PayClient {
  return new HttpPayClient(resolvePayClientOptions(options));
}
