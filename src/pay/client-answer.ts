import type { TransactionAnswer } from '../contracts/pay/answers.js';
import { classed } from '../contracts/pay/dialect.js';
import { isUnderstood } from '../contracts/pay/reader.js';
import { withKitNames } from '../contracts/pay/field-names.js';
import { retryAfterMs } from '../net/backoff.js';
import { emitTo, eventBase, type AttemptScope } from './client-observer.js';
import type { Body } from './client-request.js';
import { codeForAnswer, errorWords, PayError } from './errors.js';
import type { ResolvedPayClientOptions } from './options.js';

/** An attempt's outcome: the answer read, or the error with what the retry loop and its `failure` event need. */
export type Attempt = { ok: true; value: unknown } | FailedAttempt;
export type FailedAttempt = {
  ok: false;
  error: PayError;
  retryAfterMs: number;
  durationMs: number;
  httpRequestId: string;
};

/** What the service answered, as read off the wire. */
export interface HttpAnswer {
  httpStatus: number;
  text: string;
  /** The answer's `x-request-id`, when it has one. */
  requestId: string | undefined;
  retryAfter: string | null;
  /** From send to body read. */
  durationMs: number;
}

/** A 2xx read against the operation's contract (tolerantly) and the body that was sent. */
export function readAnswer(o: ResolvedPayClientOptions, scope: AttemptScope, body: Body, answer: HttpAnswer): Attempt {
  const { route } = scope;
  const reading = route.endpoint.read(withKitNames(parseJson(answer.text), o.dialect.kitFieldNames), body.sent);
  if (o.onEvent && !isUnderstood(reading.notUnderstood)) {
    emitTo(o, {
      type: 'responseNotUnderstood',
      ...eventBase(scope),
      httpStatus: answer.httpStatus,
      ...reading.notUnderstood,
    });
  }
  if (reading.ok) return { ok: true, value: classedAnswer(o, scope, answer.httpStatus, reading.value) };
  const error = new PayError('PAY_PROTOCOL', `${route.path}: the answer lacks what the interface document requires`, {
    ...answerDetails(scope, answer),
    errors: reading.errors,
  });
  return { ok: false, error, retryAfterMs: 0, durationMs: answer.durationMs, httpRequestId: scope.httpRequestId };
}

/** Any other status: the service's refusal in the dialect's words, with the wait it asks for before a retry. */
export function readRefusal(o: ResolvedPayClientOptions, scope: AttemptScope, answer: HttpAnswer): FailedAttempt {
  const words = errorWords(parseJson(answer.text));
  const { code, understood } = codeForAnswer(answer.httpStatus, words.code, o.dialect);
  if (!understood && o.onEvent) {
    emitTo(o, {
      type: 'codeNotUnderstood',
      ...eventBase(scope),
      httpStatus: answer.httpStatus,
      code: words.code!,
      messages: words.messages,
    });
  }
  const errors = words.messages;
  const said = errors.length > 0 ? `: ${errors.join('; ')}` : '';
  const message = `${scope.route.path}: ${answer.httpStatus} ${words.code ?? code}${said}`;
  return {
    ok: false,
    error: new PayError(code, message, { ...answerDetails(scope, answer), errors, serverCode: words.code }),
    retryAfterMs: retryAfterMs(answer.retryAfter, Date.now()) ?? 0,
    durationMs: answer.durationMs,
    httpRequestId: scope.httpRequestId,
  };
}

function answerDetails({ route, attempt, httpRequestId }: AttemptScope, answer: HttpAnswer) {
  const requestId = answer.requestId ?? httpRequestId;
  return { path: route.path, attempts: attempt, requestId, httpStatus: answer.httpStatus };
}

/**
 * A transaction's status classed by the dialect (whatever class the service itself wrote), and reported when
 * the dialect does not know the word: the answer is still good, its status kept as written.
 */
function classedAnswer(o: ResolvedPayClientOptions, scope: AttemptScope, httpStatus: number, value: unknown): unknown {
  const { operation } = scope.route.endpoint;
  if (operation !== 'status' && operation !== 'cancel') return value;
  const state = classed(o.dialect, value as TransactionAnswer);
  if (state.statusClass !== undefined) return state;
  if (o.onEvent) {
    emitTo(o, {
      type: 'statusNotUnderstood',
      ...eventBase(scope),
      httpStatus,
      transactionId: state.transactionId,
      status: state.status,
    });
  }
  return state;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
