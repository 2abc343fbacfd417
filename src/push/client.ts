import { z } from 'zod';
import { validationErrors } from '../contracts/validation-errors.js';
import {
  BatchPushRequest,
  BatchPushResponse,
  PushMessageState,
  ResetPasswordRequest,
  ResetPasswordResponse,
  SinglePushRequest,
  SinglePushResponse,
  PUSH_PATHS,
} from '../contracts/push/index.js';
import { ConfigError } from '../errors.js';
import { basicAuthHeader } from '../net/basic-auth.js';
import { sendPushCall, type PushCall, type PushTransport } from './client-call.js';
import { PushError } from './errors.js';
import { realSleep, type Sleep } from '../time/sleep.js';

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

const optionsSchema = z
  .object({
    url: z.string().regex(/^https?:\/\/[^\s/]+/, { error: 'must be an http:// or https:// URL' }),
    login: z
      .string()
      .min(1, { error: 'must not be empty' })
      .regex(/^[^:\s]+$/, { error: 'must not hold ":" or spaces' }),
    password: z.string().min(1, { error: 'must not be empty' }),
    timeoutMs: z.number().int().min(1).max(600_000).default(30_000),
    retries: z.number().int().min(0).max(20).default(3),
    retryBaseMs: z.number().int().min(0).max(60_000).default(200),
    retryMaxMs: z.number().int().min(0).max(600_000).default(5_000),
  })
  .loose();

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,128}$/;
const MESSAGE_ID = /^[\x21-\x7e]{1,128}$/;

/**
 * A Push API client: Basic auth (RFC 7617), typed {@link PushError}s, safe retries.
 * Bodies are checked against the contract before sending, so a bad one fails
 * here with the server's `<field>: <message>` lines and costs no request.
 *
 * @throws ConfigError when the options are invalid (the password is never echoed).
 * @example
 * const push = createPushClient({ url, login, password: initialPassword });
 * await push.resetPassword(newPassword);
 * const { messageId } = await push.single({
 *   msisdn: '79991234567', subId: 'promo', message: { title: 'Hi', text: 'Sale today' },
 * });
 */
export function createPushClient(options: PushClientOptions): PushClient {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) throw new ConfigError(validationErrors(parsed.error), 'Push client options');
  const { timeoutMs, retries, retryBaseMs, retryMaxMs, login } = parsed.data;
  const transport: PushTransport = {
    base: parsed.data.url.replace(/\/+$/, ''),
    authorization: basicAuthHeader(login, parsed.data.password),
    timeoutMs,
    retries,
    retryBaseMs,
    retryMaxMs,
    clock: options.clock ?? Date.now,
    sleep: options.sleep ?? realSleep,
    fetch: options.fetch ?? globalThis.fetch,
  };
  const send = <T>(call: PushCall<T>) => sendPushCall(transport, call);

  return {
    async resetPassword(newPassword, opts) {
      const body = checkBody(ResetPasswordRequest, { password: newPassword }, 'new password');
      // The service changed the password once it answers 2xx, whatever the body says (the document shows none):
      // switch then, and only then. A refusal throws before the switch, so the old password stays in use.
      await send({
        method: 'PUT',
        path: PUSH_PATHS.resetPassword,
        body,
        schema: ResetPasswordResponse,
        anyOk: true,
        retryable: false,
        signal: opts?.signal,
      });
      transport.authorization = basicAuthHeader(login, newPassword);
    },
    async single(request, opts) {
      const idempotencyKey = idempotencyKeyOf(opts);
      const body = checkBody(SinglePushRequest, request, 'single push');
      return send({
        method: 'POST',
        path: PUSH_PATHS.single,
        body,
        schema: SinglePushResponse,
        retryable: idempotencyKey !== undefined,
        idempotencyKey,
        signal: opts?.signal,
      });
    },
    async batch(request, opts) {
      const idempotencyKey = idempotencyKeyOf(opts);
      const body = checkBody(BatchPushRequest, request, 'batch push');
      return send({
        method: 'POST',
        path: PUSH_PATHS.batch,
        body,
        schema: BatchPushResponse,
        retryable: idempotencyKey !== undefined,
        idempotencyKey,
        signal: opts?.signal,
      });
    },
    async message(messageId, opts) {
      const path = messagePath(messageId);
      return send({
        method: 'GET',
        path,
        route: PUSH_PATHS.message,
        schema: PushMessageState,
        retryable: true,
        signal: opts?.signal,
      });
    },
  };
}

/**
 * The body as the contract reads it; refused here, with the server's `<field>: <message>` lines, costing no
 * request.
 */
function checkBody<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new PushError('BAD_REQUEST', `Invalid ${what}: ${validationErrors(result.error).join('; ')}`, {
      errors: validationErrors(result.error),
    });
  }
  return result.data;
}

function idempotencyKeyOf(options: SendOptions | undefined): string | undefined {
  const key = options?.idempotencyKey;
  if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
    throw new PushError('BAD_REQUEST', 'Invalid idempotencyKey: must be 1 to 128 printable ASCII characters', {
      errors: ['idempotencyKey: must be 1 to 128 printable ASCII characters'],
    });
  }
  return key;
}

/** `GET /public/push/{messageId}`'s path, the id checked and encoded. */
function messagePath(messageId: string): string {
  if (typeof messageId !== 'string' || !MESSAGE_ID.test(messageId)) {
    throw new PushError('BAD_REQUEST', 'Invalid messageId: must be 1 to 128 printable ASCII characters', {
      errors: ['messageId: must be 1 to 128 printable ASCII characters'],
    });
  }
  return PUSH_PATHS.message.replace('{messageId}', encodeURIComponent(messageId));
}
