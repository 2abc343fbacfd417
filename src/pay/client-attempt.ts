import { randomUUID } from 'node:crypto';
import { currentRequestId } from '../log/request-id.js';
import { clientSpan } from '../telemetry/client-span.js';
import { readAnswer, readRefusal, type Attempt, type FailedAttempt, type HttpAnswer } from './client-answer.js';
import { emitTo, eventBase, type AttemptScope } from './client-observer.js';
import type { Body, Route } from './client-request.js';
import { PayError } from './errors.js';
import { checkedToken, signerThrew } from '../../adapters/node/token-scheme.js';
import { KitError } from '../errors.js';
import type { ResolvedPayClientOptions } from './options.js';

const TIMED_OUT = Symbol('timeout');

/** One attempt of a call: signs the body, sends it once and reads what comes back. */
export async function attemptCall(
  o: ResolvedPayClientOptions,
  route: Route,
  body: Body,
  attempt: number,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<Attempt> {
  signal?.throwIfAborted();
  // The id of the request this call serves (the cash desk's payment route, see withRequestId), so one id
  // follows a payment through both servers' logs; else one per attempt.
  const scope: AttemptScope = { route, attempt, httpRequestId: currentRequestId() ?? randomUUID() };
  // A new token every attempt: the service refuses a jti it has seen, and the bytes are the same.
  const token = await signedToken(o, route, body, attempt);
  if (o.onEvent) emitTo(o, { type: 'request', ...eventBase(scope) });
  const answer = await exchange(o, scope, body, token, timeoutMs, signal);
  if ('ok' in answer) return answer;
  if (o.onEvent) {
    emitTo(o, {
      type: 'response',
      ...eventBase(scope),
      httpStatus: answer.httpStatus,
      durationMs: answer.durationMs,
      requestId: answer.requestId,
    });
  }
  const { httpStatus } = answer;
  return httpStatus >= 200 && httpStatus < 300 ? readAnswer(o, scope, body, answer) : readRefusal(o, scope, answer);
}

/**
 * The HTTP exchange: the answer, or the failed attempt when none came within `timeoutMs`. The caller's abort
 * rejects with its reason instead.
 */
async function exchange(
  o: ResolvedPayClientOptions,
  scope: AttemptScope,
  body: Body,
  token: string,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<HttpAnswer | FailedAttempt> {
  const { route, attempt, httpRequestId } = scope;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(TIMED_OUT), timeoutMs);
  const onAbort = () => controller.abort(signal!.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const started = performance.now();
  let answer: Omit<HttpAnswer, 'durationMs'>;
  try {
    const headers = { 'content-type': 'application/json', [o.tokenHeader]: token, 'x-request-id': httpRequestId };
    // A client span (when tracing) whose traceparent goes out with the request: the Pay API's span joins it.
    const response = await clientSpan(
      {
        name: `POST ${route.path}`,
        method: 'POST',
        url: route.url,
        headers,
        attributes: { 'wpk.pay.operation': route.endpoint.operation, 'wpk.pay.attempt': attempt },
      },
      () => o.fetch(route.url, { method: 'POST', headers, body: body.text, signal: controller.signal }),
    );
    answer = {
      httpStatus: response.status,
      requestId: response.headers.get('x-request-id') ?? undefined,
      retryAfter: response.headers.get('retry-after'),
      text: await response.text(),
    };
  } catch (cause) {
    const durationMs = performance.now() - started;
    if (signal?.aborted) throw signal.reason;
    const timedOut = controller.signal.reason === TIMED_OUT;
    const { path } = route;
    const details = { path, attempts: attempt, requestId: httpRequestId };
    const error = timedOut
      ? new PayError('PAY_TIMEOUT', `${path}: no answer within ${timeoutMs} ms`, details)
      : new PayError('PAY_NETWORK', `${path}: no answer (${describeNetworkError(cause)})`, details, { cause });
    return { ok: false, error, retryAfterMs: 0, durationMs, httpRequestId };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
  return { ...answer, durationMs: performance.now() - started };
}

/**
 * The attempt's token. A signer that throws or answers no string fails the call before anything is sent, as
 * `TOKEN_SIGNER_FAILED` naming the signer: not the service's refusal, so the card is not blocked. The kit's own
 * refusals (`REQUEST_DATA_INVALID`, `VERIFIER_CLOSED`) keep their codes.
 */
async function signedToken(o: ResolvedPayClientOptions, route: Route, body: Body, attempt: number): Promise<string> {
  const { path } = route;
  const details = { path, attempts: attempt - 1 };
  let value: unknown;
  try {
    value = await o.sign(body.text, { operation: route.endpoint.operation, path });
  } catch (cause) {
    if (cause instanceof KitError && cause.code !== 'TOKEN_SIGNER_FAILED') throw cause;
    const why = cause instanceof KitError ? cause.message : signerThrew(o.signer, cause).message;
    throw new PayError('TOKEN_SIGNER_FAILED', `${path}: not sent: ${why}`, details, { cause });
  }
  try {
    return checkedToken(o.signer, value);
  } catch (error) {
    throw new PayError('TOKEN_SIGNER_FAILED', `${path}: not sent: ${(error as Error).message}`, details);
  }
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } })?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : 'network error';
}
