import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ErrorEnvelope, validationErrors } from '../contracts/errors.js';
import {
  BatchPushRequest, BatchPushResponse, PushMessageState, ResetPasswordRequest, ResetPasswordResponse, SinglePushRequest,
  SinglePushResponse, PUSH_PATHS,
} from '../contracts/push/index.js';
import { ConfigError } from '../errors.js';
import { basicAuthHeader } from '../net/basic-auth.js';
import { PushError, type PushErrorCode } from './errors.js';
import { backoffMs, realSleep, retryAfterMs, type Sleep } from './wait.js';

/** Options of {@link createPushClient}. */
export interface PushClientOptions {
  /** Base URL of the Push service, e.g. `https://push.example` or the sandbox's `http://127.0.0.1:8090`. */
  url: string;
  login: string;
  /** The current password (the initial one until {@link PushClient.resetPassword} succeeds). */
  password: string;
  /** Time allowed for one attempt, in ms. Default 30 000. */
  timeoutMs?: number;
  /**
   * Retries of a call that got no answer (network error, timeout) or a 5xx, only
   * where repeating it cannot send twice: GETs, and sends that carry an
   * `idempotencyKey`. Default 3; 0 turns retrying off.
   */
  retries?: number;
  /** First retry's wait ceiling in ms, doubling each retry. Default 200. */
  retryBaseMs?: number;
  /** Longest wait between two attempts, in ms. Default 5 000. */
  retryMaxMs?: number;
  /** Now, in ms since the epoch (for `retryAt`). Default `Date.now`. */
  clock?: () => number;
  /** Waits between retries. Default real time. */
  sleep?: Sleep;
  /** The fetch to use. Default the global one. */
  fetch?: typeof fetch;
}

/** Per-call options of the send methods. */
export interface SendOptions {
  /**
   * The `Idempotency-Key` header (1 to 128 printable characters): the same key and body
   * within 24 h get the stored answer and send nothing twice. Also makes the call retryable.
   */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/** A Push API client (the interface document, section 4.3). */
export interface PushClient {
  /**
   * Sets a new password (`PUT /public/user/reset-password`). Any 2xx (any body, or none) is success and later calls
   * use the new one; any other answer throws its {@link PushError} and the old one stays in use. Never retried: a
   * lost answer would leave the password unknown.
   */
  resetPassword(newPassword: string, options?: { signal?: AbortSignal }): Promise<void>;
  /** Sends one push. A 304 (same subId and number too soon) throws `TOO_EARLY` with `retryAt`. */
  single(request: SinglePushRequest, options?: SendOptions): Promise<SinglePushResponse>;
  /** Sends one batch of at most 10 000 numbers; bad numbers come back in `rejected`. A 304 throws `TOO_EARLY`. */
  batch(request: BatchPushRequest, options?: SendOptions): Promise<BatchPushResponse>;
  /** Where a message is (`GET /public/push/{messageId}`); `NOT_FOUND` for an unknown id. */
  message(messageId: string, options?: { signal?: AbortSignal }): Promise<PushMessageState>;
}

const optionsSchema = z.object({
  url: z.string().regex(/^https?:\/\/[^\s/]+/, { error: 'must be an http:// or https:// URL' }),
  login: z.string().min(1, { error: 'must not be empty' }).regex(/^[^:\s]+$/, { error: 'must not hold ":" or spaces' }),
  password: z.string().min(1, { error: 'must not be empty' }),
  timeoutMs: z.number().int().min(1).max(600_000).default(30_000),
  retries: z.number().int().min(0).max(20).default(3),
  retryBaseMs: z.number().int().min(0).max(60_000).default(200),
  retryMaxMs: z.number().int().min(0).max(600_000).default(5_000),
}).loose();

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,128}$/;

const ENVELOPE_CODES: Record<number, PushErrorCode> = { 400: 'BAD_REQUEST', 401: 'UNAUTHORIZED', 404: 'NOT_FOUND', 409: 'IDEMPOTENCY_CONFLICT' };

interface Call<T> {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: unknown;
  schema: z.ZodType<T>;
  /** Any 2xx is the success, whatever its body (none, another shape, a 204): the body is not read as `schema`. */
  anyOk?: boolean;
  retryable: boolean;
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/**
 * A Push API client: Basic auth (RFC 7617), typed {@link PushError}s, safe retries.
 * Bodies are checked against the contract before sending, so a bad one fails
 * here with the server's `<field>: <message>` lines and costs no request.
 *
 * @throws ConfigError when the options are invalid (the password is never echoed).
 * @example
 * const push = createPushClient({ url, login, password: initialPassword });
 * await push.resetPassword(newPassword);
 * const { messageId } = await push.single({ msisdn: '79991234567', subId: 'promo', message: { title: 'Hi', text: 'Sale today' } });
 */
export function createPushClient(options: PushClientOptions): PushClient {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) throw new ConfigError(validationErrors(parsed.error), 'Push client options');
  const { timeoutMs, retries, retryBaseMs, retryMaxMs, login } = parsed.data;
  const base = parsed.data.url.replace(/\/+$/, '');
  const clock = options.clock ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const doFetch = options.fetch ?? globalThis.fetch;
  let authorization = basicAuthHeader(login, parsed.data.password);

  function check<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
    const result = schema.safeParse(value);
    if (!result.success) throw new PushError('BAD_REQUEST', `Invalid ${what}: ${validationErrors(result.error).join('; ')}`, { errors: validationErrors(result.error) });
    return result.data;
  }

  async function attempt<T>(call: Call<T>, body: string | undefined, requestId: string, attempts: number): Promise<T> {
    const headers: Record<string, string> = { authorization, accept: 'application/json', 'x-request-id': requestId };
    if (body !== undefined) headers['content-type'] = 'application/json; charset=utf-8';
    if (call.idempotencyKey !== undefined) headers['idempotency-key'] = call.idempotencyKey;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
    const details = { path: call.path, requestId, attempts };
    let response: Response;
    let text: string;
    try {
      response = await doFetch(base + call.path, { method: call.method, headers, body, signal, redirect: 'manual' });
      text = await response.text();
    } catch (error) {
      if (call.signal?.aborted) throw call.signal.reason;
      if (timeout.aborted) throw new PushError('TIMEOUT', `${call.method} ${call.path}: no answer within ${timeoutMs} ms`, details, { cause: error });
      throw new PushError('NETWORK', `${call.method} ${call.path}: ${(error as Error).message}`, details, { cause: error });
    }
    const answered = { ...details, httpStatus: response.status, requestId: response.headers.get('x-request-id') ?? requestId };
    if (call.anyOk && response.status >= 200 && response.status < 300) return undefined as T;
    if (response.status === 200) {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new PushError('PROTOCOL', `${call.method} ${call.path}: 200 answer is not JSON`, answered);
      }
      const result = call.schema.safeParse(json);
      if (!result.success) throw new PushError('PROTOCOL', `${call.method} ${call.path}: 200 answer is not the contract's (${validationErrors(result.error).slice(0, 3).join('; ')})`, answered);
      return result.data;
    }
    if (response.status === 304) {
      const retryAt = clock() + retryAfterMs(response.headers, clock());
      throw new PushError('TOO_EARLY', `${call.method} ${call.path}: too early, retry at ${new Date(retryAt).toISOString()}`, { ...answered, retryAt });
    }
    let envelope: ErrorEnvelope | undefined;
    try {
      envelope = ErrorEnvelope.parse(JSON.parse(text));
    } catch {
      envelope = undefined;
    }
    const errors = envelope?.errors ?? [];
    if (response.status >= 500) throw new PushError('SERVER', `${call.method} ${call.path}: server error ${response.status}`, { ...answered, errors });
    const code = ENVELOPE_CODES[response.status];
    if (code === undefined || envelope === undefined) {
      throw new PushError('PROTOCOL', `${call.method} ${call.path}: unexpected answer ${response.status}`, { ...answered, errors });
    }
    // 409 carries its own status; 400/401/404 the document's.
    const status = envelope.status === 'IDEMPOTENCY_CONFLICT' ? 'IDEMPOTENCY_CONFLICT' : code;
    throw new PushError(status, `${call.method} ${call.path}: ${status}${errors.length > 0 ? `: ${errors.join('; ')}` : ''}`, { ...answered, errors });
  }

  async function send<T>(call: Call<T>): Promise<T> {
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    const requestId = randomUUID();
    for (let attempts = 1; ; attempts++) {
      try {
        return await attempt(call, body, requestId, attempts);
      } catch (error) {
        const retry = error instanceof PushError && call.retryable && attempts <= retries
          && (error.code === 'NETWORK' || error.code === 'TIMEOUT' || error.code === 'SERVER');
        if (!retry) throw error;
        await sleep(backoffMs(attempts, retryBaseMs, retryMaxMs), call.signal);
      }
    }
  }

  function keyOf(options: SendOptions | undefined): string | undefined {
    const key = options?.idempotencyKey;
    if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
      throw new PushError('BAD_REQUEST', 'Invalid idempotencyKey: must be 1 to 128 printable ASCII characters', { errors: ['idempotencyKey: must be 1 to 128 printable ASCII characters'] });
    }
    return key;
  }

  return {
    async resetPassword(newPassword, opts) {
      const body = check(ResetPasswordRequest, { password: newPassword }, 'new password');
      // The service changed the password once it answers 2xx, whatever the body says (the document shows none): switch
      // then, and only then. A refusal throws before the switch, so the old password stays in use.
      await send({
        method: 'PUT', path: PUSH_PATHS.resetPassword, body, schema: ResetPasswordResponse, anyOk: true, retryable: false,
        signal: opts?.signal,
      });
      authorization = basicAuthHeader(login, newPassword);
    },
    async single(request, opts) {
      const idempotencyKey = keyOf(opts);
      const body = check(SinglePushRequest, request, 'single push');
      return send({ method: 'POST', path: PUSH_PATHS.single, body, schema: SinglePushResponse, retryable: idempotencyKey !== undefined, idempotencyKey, signal: opts?.signal });
    },
    async batch(request, opts) {
      const idempotencyKey = keyOf(opts);
      const body = check(BatchPushRequest, request, 'batch push');
      return send({ method: 'POST', path: PUSH_PATHS.batch, body, schema: BatchPushResponse, retryable: idempotencyKey !== undefined, idempotencyKey, signal: opts?.signal });
    },
    async message(messageId, opts) {
      if (typeof messageId !== 'string' || !/^[\x21-\x7e]{1,128}$/.test(messageId)) {
        throw new PushError('BAD_REQUEST', 'Invalid messageId: must be 1 to 128 printable ASCII characters', { errors: ['messageId: must be 1 to 128 printable ASCII characters'] });
      }
      const path = PUSH_PATHS.message.replace('{messageId}', encodeURIComponent(messageId));
      return send({ method: 'GET', path, schema: PushMessageState, retryable: true, signal: opts?.signal });
    },
  };
}
