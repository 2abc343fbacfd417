import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { ErrorEnvelope } from '../contracts/errors.js';
import { validationErrors } from '../contracts/validation-errors.js';
import { clientSpan } from '../telemetry/client-span.js';
import { PushError, type PushErrorCode } from './errors.js';
import { backoffDelay, retryAfterMs } from '../net/backoff.js';
import type { Sleep } from '../time/sleep.js';

/** How a client reaches the service: resolved options, and the Basic credentials in use now. */
export interface PushTransport {
  /** The base URL without trailing slashes. */
  base: string;
  /** `Authorization` header value; replaced once a new password is accepted. */
  authorization: string;
  timeoutMs: number;
  retries: number;
  retryBaseMs: number;
  retryMaxMs: number;
  clock: () => number;
  sleep: Sleep;
  fetch: typeof fetch;
}

/** One call of the Push API. */
export interface PushCall<T> {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  /** The path's template when it holds an id (`/public/push/{messageId}`): what names the call's span. */
  route?: string;
  body?: unknown;
  schema: z.ZodType<T>;
  /** Any 2xx is the success, whatever its body (none, another shape, a 204): the body is not read as `schema`. */
  anyOk?: boolean;
  retryable: boolean;
  idempotencyKey?: string;
  signal?: AbortSignal;
}

const ENVELOPE_CODES: Record<number, PushErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  404: 'NOT_FOUND',
  409: 'IDEMPOTENCY_CONFLICT',
};

/** The details every error of one attempt carries, before and after an answer. */
interface AttemptDetails {
  path: string;
  requestId: string;
  attempts: number;
}

/**
 * Sends `call` with one request id for all its attempts, retrying a retryable call that got no answer or a 5xx
 * after a jittered backoff.
 */
export async function sendPushCall<T>(transport: PushTransport, call: PushCall<T>): Promise<T> {
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  const requestId = randomUUID();
  for (let attempts = 1; ; attempts++) {
    try {
      return await attempt(transport, call, body, requestId, attempts);
    } catch (error) {
      const retry =
        error instanceof PushError &&
        call.retryable &&
        attempts <= transport.retries &&
        (error.code === 'PUSH_NETWORK' || error.code === 'PUSH_TIMEOUT' || error.code === 'PUSH_SERVER');
      if (!retry) throw error;
      const policy = { max: transport.retries, baseMs: transport.retryBaseMs, maxMs: transport.retryMaxMs };
      await transport.sleep(backoffDelay(attempts, policy, Math.random), call.signal);
    }
  }
}

/** One request: the answer read as the call's schema, or the PushError for what came (or did not). */
async function attempt<T>(
  transport: PushTransport,
  call: PushCall<T>,
  body: string | undefined,
  requestId: string,
  attempts: number,
): Promise<T> {
  const headers: Record<string, string> = {
    authorization: transport.authorization,
    accept: 'application/json',
    'x-request-id': requestId,
  };
  if (body !== undefined) headers['content-type'] = 'application/json; charset=utf-8';
  if (call.idempotencyKey !== undefined) headers['idempotency-key'] = call.idempotencyKey;
  const timeout = AbortSignal.timeout(transport.timeoutMs);
  const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
  const details: AttemptDetails = { path: call.path, requestId, attempts };
  const what = `${call.method} ${call.path}`;
  let response: Response;
  let text: string;
  try {
    const name = `${call.method} ${call.route ?? call.path}`;
    response = await clientSpan({ name, method: call.method, url: transport.base, headers }, () =>
      transport.fetch(transport.base + call.path, {
        method: call.method,
        headers,
        body,
        signal,
        redirect: 'manual',
      }),
    );
    text = await response.text();
  } catch (error) {
    if (call.signal?.aborted) throw call.signal.reason;
    if (timeout.aborted) {
      throw new PushError('PUSH_TIMEOUT', `${what}: no answer within ${transport.timeoutMs} ms`, details, {
        cause: error,
      });
    }
    throw new PushError(
      'PUSH_NETWORK',
      `${what}: no answer from ${hostOf(transport.base)} (${networkReason(error)})`,
      details,
      { cause: error },
    );
  }
  return readAnswer(transport, call, response, text, details);
}

/** A 2xx read as the call wants it; a 304 as `TOO_EARLY` with its `retryAt`; anything else as its refusal. */
function readAnswer<T>(
  transport: PushTransport,
  call: PushCall<T>,
  response: Response,
  text: string,
  details: AttemptDetails,
): T {
  const what = `${call.method} ${call.path}`;
  const requestId = response.headers.get('x-request-id') ?? details.requestId;
  const answered = { ...details, httpStatus: response.status, requestId };
  if (call.anyOk && response.status >= 200 && response.status < 300) return undefined as T;
  if (response.status === 200) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new PushError('PUSH_PROTOCOL', `${what}: 200 answer is not JSON`, answered);
    }
    const result = call.schema.safeParse(json);
    if (!result.success) {
      const lines = validationErrors(result.error).slice(0, 3).join('; ');
      throw new PushError('PUSH_PROTOCOL', `${what}: 200 answer is not the contract's (${lines})`, answered);
    }
    return result.data;
  }
  if (response.status === 304) {
    const { clock } = transport;
    const retryAt = clock() + waitAsked(response.headers, clock());
    const at = new Date(retryAt).toISOString();
    throw new PushError('TOO_EARLY', `${what}: too early, retry at ${at}`, { ...answered, retryAt });
  }
  throw refusal(what, response.status, text, answered);
}

/**
 * How long a 304 asks to wait, in ms: `X-Retry-After-Ms` when present (precise,
 * which compressed sandbox time needs), else `Retry-After`, else 1 s.
 */
function waitAsked(headers: Headers, now: number): number {
  const precise = headers.get('x-retry-after-ms')?.trim();
  if (precise !== undefined && /^\d{1,9}$/.test(precise)) return Number(precise);
  return retryAfterMs(headers.get('retry-after'), now) ?? 1_000;
}

/** The error for a 4xx or 5xx, in the words of its error envelope when it has one. */
function refusal(
  what: string,
  httpStatus: number,
  text: string,
  answered: AttemptDetails & { httpStatus: number },
): PushError {
  let envelope: ErrorEnvelope | undefined;
  try {
    envelope = ErrorEnvelope.parse(JSON.parse(text));
  } catch {
    envelope = undefined;
  }
  const errors = envelope?.errors ?? [];
  if (httpStatus >= 500)
    return new PushError('PUSH_SERVER', `${what}: server error ${httpStatus}`, { ...answered, errors });
  const code = ENVELOPE_CODES[httpStatus];
  if (code === undefined || envelope === undefined) {
    return new PushError('PUSH_PROTOCOL', `${what}: unexpected answer ${httpStatus}`, { ...answered, errors });
  }
  // 409 carries its own status; 400/401/404 the document's.
  const status = envelope.status === 'IDEMPOTENCY_CONFLICT' ? 'IDEMPOTENCY_CONFLICT' : code;
  const said = errors.length > 0 ? `: ${errors.join('; ')}` : '';
  return new PushError(status, `${what}: ${status}${said}`, { ...answered, errors });
}

/** `host:port` of a base URL, for messages: a failed fetch names neither. */
function hostOf(base: string): string {
  try {
    return new URL(base).host;
  } catch {
    return base;
  }
}

/** Why fetch failed, as specific as undici says: its cause's code (ECONNREFUSED, ENOTFOUND) or message. */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } })?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}
