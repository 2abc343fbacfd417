import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { ErrorEnvelope, validationErrors } from '../contracts/errors.js';
import { clientSpan } from '../telemetry/client-span.js';
import { PushError, type PushErrorCode } from './errors.js';
import { backoffMs, retryAfterMs, type Sleep } from './wait.js';

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
  400: 'BAD_REQUEST', 401: 'UNAUTHORIZED', 404: 'NOT_FOUND', 409: 'IDEMPOTENCY_CONFLICT',
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
      const retry = error instanceof PushError && call.retryable && attempts <= transport.retries
        && (error.code === 'NETWORK' || error.code === 'TIMEOUT' || error.code === 'SERVER');
      if (!retry) throw error;
      await transport.sleep(backoffMs(attempts, transport.retryBaseMs, transport.retryMaxMs), call.signal);
    }
  }
}

/** One request: the answer read as the call's schema, or the PushError for what came (or did not). */
async function attempt<T>(
  transport: PushTransport, call: PushCall<T>, body: string | undefined, requestId: string, attempts: number,
): Promise<T> {
  const headers: Record<string, string> = {
    authorization: transport.authorization, accept: 'application/json', 'x-request-id': requestId,
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
    response = await clientSpan({ name, method: call.method, url: transport.base, headers },
      () => transport.fetch(transport.base + call.path, {
        method: call.method, headers, body, signal, redirect: 'manual',
      }));
    text = await response.text();
  } catch (error) {
    if (call.signal?.aborted) throw call.signal.reason;
    if (timeout.aborted) {
      throw new PushError('TIMEOUT', `${what}: no answer within ${transport.timeoutMs} ms`, details, { cause: error });
    }
    throw new PushError('NETWORK', `${what}: ${(error as Error).message}`, details, { cause: error });
  }
  return readAnswer(transport, call, response, text, details);
}

/** A 2xx read as the call wants it; a 304 as `TOO_EARLY` with its `retryAt`; anything else as its refusal. */
function readAnswer<T>(
  transport: PushTransport, call: PushCall<T>, response: Response, text: string, details: AttemptDetails,
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
      throw new PushError('PROTOCOL', `${what}: 200 answer is not JSON`, answered);
    }
    const result = call.schema.safeParse(json);
    if (!result.success) {
      const lines = validationErrors(result.error).slice(0, 3).join('; ');
      throw new PushError('PROTOCOL', `${what}: 200 answer is not the contract's (${lines})`, answered);
    }
    return result.data;
  }
  if (response.status === 304) {
    const { clock } = transport;
    const retryAt = clock() + retryAfterMs(response.headers, clock());
    const at = new Date(retryAt).toISOString();
    throw new PushError('TOO_EARLY', `${what}: too early, retry at ${at}`, { ...answered, retryAt });
  }
  throw refusal(what, response.status, text, answered);
}

/** The error for a 4xx or 5xx, in the words of its error envelope when it has one. */
function refusal(
  what: string, httpStatus: number, text: string, answered: AttemptDetails & { httpStatus: number },
): PushError {
  let envelope: ErrorEnvelope | undefined;
  try {
    envelope = ErrorEnvelope.parse(JSON.parse(text));
  } catch {
    envelope = undefined;
  }
  const errors = envelope?.errors ?? [];
  if (httpStatus >= 500) return new PushError('SERVER', `${what}: server error ${httpStatus}`, { ...answered, errors });
  const code = ENVELOPE_CODES[httpStatus];
  if (code === undefined || envelope === undefined) {
    return new PushError('PROTOCOL', `${what}: unexpected answer ${httpStatus}`, { ...answered, errors });
  }
  // 409 carries its own status; 400/401/404 the document's.
  const status = envelope.status === 'IDEMPOTENCY_CONFLICT' ? 'IDEMPOTENCY_CONFLICT' : code;
  const said = errors.length > 0 ? `: ${errors.join('; ')}` : '';
  return new PushError(status, `${what}: ${status}${said}`, { ...answered, errors });
}
