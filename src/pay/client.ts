import type {
  AvailabilityAnswer,
  AvailabilityTaskAnswer,
  CheckoutAnswer,
  ReceiptAnswer,
  RefundAnswer,
  TransactionAnswer,
} from '../contracts/pay/answers.js';
import type {
  AvailabilityRequest,
  AvailabilityTaskRequest,
  CancelRequest,
  CheckoutRequest,
  ReceiptRequest,
  RefundRequest,
  StatusRequest,
  TransactionRef,
} from '../contracts/pay/bodies.js';
import type { PayDialect } from '../contracts/pay/dialect.js';
import { backoffDelay } from '../net/backoff.js';
import { attemptCall } from './client-attempt.js';
import { emitTo, eventBase } from './client-observer.js';
import { buildBody, routeOf, type Route } from './client-request.js';
import { ENDPOINTS } from './endpoints.js';
import { PayError } from './errors.js';
import type { PayOperation } from './events.js';
import {
  type PayClientOptions,
  type PayProfile,
  resolvePayClientOptions,
  type ResolvedPayClientOptions,
} from './options.js';

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
export type RefundInput = Omit<RefundRequest, 'refundId' | 'transactionId'> & {
  refundId?: string;
  transactionId: TransactionRef;
};

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
  /** How the token is computed: the signer's `tokenScheme` (`kit`, `hmac-sha256-hex`, `module <path>`...) or `sign`. */
  readonly tokenScheme: string;
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

class HttpPayClient implements PayClient {
  readonly #options: ResolvedPayClientOptions;
  readonly #routes: Map<PayOperation, Route | null>;

  constructor(options: ResolvedPayClientOptions) {
    this.#options = options;
    this.#routes = new Map(Object.values(ENDPOINTS).map((e) => [e.operation, routeOf(e, options)]));
  }

  get profile(): PayProfile {
    return this.#options.profile;
  }
  get dialect(): PayDialect {
    return this.#options.dialect;
  }
  get tokenScheme(): string {
    return this.#options.signer;
  }

  availability(body: AvailabilityRequest, options?: PayCallOptions) {
    return this.#call<AvailabilityAnswer>('availability', body, options);
  }
  availabilityTask(body: AvailabilityTaskRequest, options?: PayCallOptions) {
    return this.#call<AvailabilityTaskAnswer>('availabilityTask', body, options);
  }
  checkout(body: CheckoutRequest, options?: PayCallOptions) {
    return this.#call<CheckoutAnswer>('checkout', body, options);
  }
  status(body: StatusInput, options?: PayCallOptions) {
    return this.#call<TransactionAnswer>('status', body, options);
  }
  cancel(body: CancelInput, options?: PayCallOptions) {
    return this.#call<TransactionAnswer>('cancel', body, options);
  }
  refund(body: RefundInput, options?: PayCallOptions) {
    return this.#call<RefundAnswer>('refund', body, options);
  }
  receipt(body: ReceiptInput, options?: PayCallOptions) {
    return this.#call<ReceiptAnswer>('receipt', body, options);
  }

  /** The call: its body built once, then attempts (the same bytes, a fresh token each) until one is final. */
  async #call<T>(operation: PayOperation, input: unknown, options: PayCallOptions = {}): Promise<T> {
    const o = this.#options;
    const route = this.#routes.get(operation);
    if (!route) {
      const hint = `give paths.${operation} to use it under profile 'document'`;
      throw new PayError('PAY_UNSUPPORTED', `${operation}: the interface document shows no path for it; ${hint}`, {
        attempts: 0,
      });
    }
    const body = buildBody(route, input, o.profile);
    const maxRetries = route.idempotent ? (options.retries ?? o.retries.max) : 0;
    const timeoutMs = options.timeoutMs ?? o.timeoutMs;
    for (let attempt = 1; ; attempt++) {
      const result = await attemptCall(o, route, body, attempt, timeoutMs, options.signal);
      if (result.ok) return result.value as T;
      const { error, httpRequestId } = result;
      const retry = error.transient && attempt <= maxRetries;
      const delay = retry ? backoffDelay(attempt, o.retries, o.random, result.retryAfterMs) : undefined;
      if (o.onEvent) {
        emitTo(o, {
          type: 'failure',
          ...eventBase({ route, attempt, httpRequestId }),
          durationMs: result.durationMs,
          error,
          retryInMs: delay,
        });
      }
      if (delay === undefined) throw error;
      await o.sleep(delay, options.signal);
    }
  }
}

/**
 * Creates a Pay API client. Safe calls (/checkout, /status, /availability-info,
 * and /refund under profile `'kit'`) are retried on no answer or 5xx with
 * jittered backoff; every attempt gets a fresh token over the same bytes.
 *
 * @example
 * const pay = createPayClient({
 *   baseUrl: 'http://127.0.0.1:8090', verifier, onEvent: (e) => e.type === 'responseNotUnderstood' && log.warn(e),
 * });
 * const { transactionId } = await pay.checkout({
 *   requestId, cardSession, items, discountAmount: 0, totalAmount: 15000,
 * });
 */
export function createPayClient(options: PayClientOptions): PayClient {
  return new HttpPayClient(resolvePayClientOptions(options));
}
