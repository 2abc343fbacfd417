import { hintsFor } from './advice.js';
import { maskSecrets, showValue, valueAt, type PayCheckExchange } from './record.js';
import type { PayCheckFailure, PayCheckResult } from './types.js';
import { PayError } from '../errors.js';
import type { PayClientEvent, PayOperation } from '../events.js';

/** An answer the Pay client read, though not all of it was as the contract says. */
export type NotUnderstoodEvent = Extract<PayClientEvent, { type: 'responseNotUnderstood' }>;

/** At most this much of a refusal's body is shown. */
const BODY_SHOWN = 4096;

/** The field of a reader's `<field>: <message>` line. */
const split = (line: string): [string, string] => {
  const at = line.indexOf(': ');
  return at < 0 ? [line, ''] : [line.slice(0, at), line.slice(at + 2)];
};

/**
 * The verdict on one operation from what was sent and answered: PASS, DIFFERS (fields the contract does not expect),
 * FAIL (a refusal or no usable answer, with its status and body) or SKIPPED (`error` a string: why not run).
 */
export function judge(
  operation: PayOperation,
  path: string,
  exchanges: PayCheckExchange[],
  events: NotUnderstoodEvent[],
  error: unknown,
  secrets: readonly string[],
): PayCheckResult {
  const last = exchanges.at(-1);
  const result: PayCheckResult = {
    operation,
    path,
    verdict: 'PASS',
    unknown: [],
    invalid: [],
    missing: [],
    notes: [],
    exchanges,
    ...(last?.response ? { httpStatus: last.response.status } : {}),
    ...(exchanges.length > 0 ? { durationMs: Math.round(exchanges.reduce((sum, e) => sum + e.durationMs, 0)) } : {}),
  };
  const json = parseJson(last?.response?.body);
  const seen = (field: string) => maskSecrets(showValue(valueAt(json, field)), secrets);
  for (const event of events) {
    result.unknown.push(...event.unknown.map((field) => ({ field, value: seen(field) })));
    result.invalid.push(
      ...event.invalid.map((line) => {
        const [field, message] = split(line);
        return { field, value: seen(field), message };
      }),
    );
    result.missing.push(...event.missing);
  }
  if (typeof error === 'string') {
    result.verdict = 'SKIPPED';
    result.notes.push(error);
  } else if (error instanceof PayError && error.code === 'PAY_UNSUPPORTED') {
    result.verdict = 'SKIPPED';
    result.notes.push(
      `not run: the interface document shows no path for ${operation}; give the service's (paths.${operation}, ` +
        `--path ${operation}=/...)`,
    );
  } else if (error !== undefined) {
    result.verdict = 'FAIL';
    result.failure = failureOf(error, last, secrets);
    if (
      error instanceof PayError &&
      error.httpStatus !== undefined &&
      error.httpStatus >= 200 &&
      error.httpStatus < 300
    ) {
      for (const line of error.errors) {
        const [field, message] = split(line);
        if (message !== 'missing') result.invalid.push({ field, value: seen(field), message });
      }
    }
  } else if (result.unknown.length > 0 || result.invalid.length > 0) {
    result.verdict = 'DIFFERS';
  }
  result.notes.push(...hintsFor(result, error));
  return result;
}

function failureOf(error: unknown, last: PayCheckExchange | undefined, secrets: readonly string[]): PayCheckFailure {
  const body = last?.response?.body;
  const shown = body === undefined ? {} : { body: body.length > BODY_SHOWN ? `${body.slice(0, BODY_SHOWN)}…` : body };
  if (error instanceof PayError) {
    return {
      code: error.code,
      message: maskSecrets(error.message, secrets),
      errors: error.errors.map((e) => maskSecrets(e, secrets)),
      ...(error.serverCode === undefined ? {} : { serverCode: error.serverCode }),
      ...shown,
    };
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { code: 'ERROR', message: maskSecrets(message, secrets), errors: [], ...shown };
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
