import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { CardSession, type TransactionRef } from '../../contracts/pay/bodies.js';
import { ConfigError } from '../../errors.js';
import { adviseOn, hintsFor } from './advice.js';
import { createRecorder, maskSecrets, showValue, valueAt, type PayCheckExchange } from './record.js';
import type { PayCheckFailure, PayCheckProgress, PayCheckReport, PayCheckResult } from './types.js';
import { createPayClient, type PayClient } from '../client.js';
import { missingFields } from './missing-fields.js';
import { ENDPOINTS } from '../endpoints.js';
import { PayError } from '../errors.js';
import type { PayClientEvent, PayOperation } from '../events.js';
import { DEFAULT_TOKEN_HEADER, type PayClientOptions } from '../options.js';
import { validationErrors } from '../../contracts/validation-errors.js';

/**
 * Options of {@link checkPayApi}: the Pay client's (retries are always off: every answer is seen) and the probe's own.
 */
export type PayCheckOptions = Pick<
  PayClientOptions,
  'baseUrl' | 'verifier' | 'sign' | 'tokenHeader' | 'profile' | 'paths' | 'timeoutMs' | 'fetch' | 'dialect'
> & {
  /** The card session to pay against (from a barcode the wallet app shows). */
  cardSession: string;
  /**
   * Strings never to show (the partner key): masked wherever they appear in the record. The token header's value is
   * always masked.
   */
  secrets?: string[];
  /** The probe's requestId. Default `wpk-check-<12 hex>`. */
  newId?: () => string;
  onProgress?: (progress: PayCheckProgress) => void;
};

/** The tiny basket of the probe: one piece at 1.00. */
export const CHECK_BASKET = {
  items: [{ name: 'wallet-partner-kit pay check', article: 'WPK-CHECK', quantity: 1, price: 100 }],
  discountAmount: 0,
  totalAmount: 100,
} as const;

const BODY_SHOWN = 4096;

export type {
  PayCheckFailure,
  PayCheckField,
  PayCheckProgress,
  PayCheckReport,
  PayCheckResult,
  PayCheckVerdict,
} from './types.js';

const own = z
  .object({
    cardSession: CardSession,
    secrets: z
      .array(z.string({ error: 'must be a list of strings' }))
      .max(16)
      .optional(),
    newId: z.custom<() => string>((v) => typeof v === 'function', { error: 'must be a function' }).optional(),
    onProgress: z
      .custom<(p: PayCheckProgress) => void>((v) => typeof v === 'function', { error: 'must be a function' })
      .optional(),
  })
  .strip();

type NotUnderstoodEvent = Extract<PayClientEvent, { type: 'responseNotUnderstood' }>;

/**
 * Probes a Pay API as the kit uses it: /availability-info, /availability-info/task
 * and /checkout with a tiny basket (1.00), /status of the transaction made, and
 * /cancel of it (so no invoice is left waiting in the app). Each request and
 * answer is recorded; each operation gets a verdict naming the fields (and
 * values) the contract does not expect, or the refusal's status and body.
 * Never throws for what the service answers; throws ConfigError on bad options.
 *
 * @example
 * const report = await checkPayApi({ baseUrl: 'http://127.0.0.1:8090', verifier, cardSession: 'AB12CD34' });
 * for (const line of formatPayCheckReport(report)) console.log(line);
 */
export async function checkPayApi(options: PayCheckOptions): Promise<PayCheckReport> {
  const parsed = own.safeParse(options);
  if (!parsed.success) throw new ConfigError(validationErrors(parsed.error, 'options'), 'pay check options');
  const secrets = options.secrets ?? [];
  const tokenHeader = options.tokenHeader ?? DEFAULT_TOKEN_HEADER;
  const recorder = createRecorder(options.fetch ?? globalThis.fetch, tokenHeader, secrets);
  let events: NotUnderstoodEvent[] = [];
  // Words the dialect does not map, as the service wrote them, in the order first seen.
  const unmapped = { statuses: new Set<string>(), codes: new Set<string>() };
  const client = createPayClient({
    baseUrl: options.baseUrl,
    verifier: options.verifier,
    sign: options.sign,
    tokenHeader,
    profile: options.profile,
    paths: options.paths,
    timeoutMs: options.timeoutMs,
    fetch: recorder.fetch,
    retries: false,
    dialect: options.dialect,
    onEvent: (e) => {
      if (e.type === 'responseNotUnderstood') events.push(e);
      else if (e.type === 'statusNotUnderstood') unmapped.statuses.add(e.status);
      else if (e.type === 'codeNotUnderstood') unmapped.codes.add(e.code);
    },
  } as PayClientOptions);
  const { cardSession } = parsed.data;
  const requestId = (options.newId ?? (() => `wpk-check-${randomBytes(6).toString('hex')}`))();
  const results: PayCheckResult[] = [];
  const progress = (p: PayCheckProgress) => {
    try {
      options.onProgress?.(p);
    } catch {
      // A progress printer's bug must not end the probe.
    }
  };

  /** Calls one operation (or skips it with the reason given as `call`), judges it, and reports it. */
  async function probe<T>(
    operation: PayOperation,
    call: ((c: PayClient) => Promise<T>) | string,
    after?: (result: PayCheckResult, value: T) => void,
  ): Promise<T | undefined> {
    const path = options.paths?.[operation] ?? ENDPOINTS[operation].path;
    progress({ type: 'start', operation, path });
    const from = recorder.exchanges.length;
    events = [];
    let value: T | undefined;
    let error: unknown;
    if (typeof call === 'string') error = call;
    else {
      try {
        value = await call(client);
      } catch (e) {
        error = e;
      }
    }
    const result = judge(operation, path, recorder.exchanges.slice(from), events, error, secrets);
    const ok = result.verdict === 'PASS' || result.verdict === 'DIFFERS';
    if (ok) after?.(result, value as T);
    if (!ok && operation === 'cancel' && transactionId) {
      result.notes.push(
        `the probe's invoice ${transactionId} (1.00) may still wait in the app until it expires: do not confirm it`,
      );
    }
    results.push(result);
    progress({ type: 'done', result });
    return ok ? value : undefined;
  }

  const { items, discountAmount, totalAmount } = CHECK_BASKET;
  const basket = { items: items.map((i) => ({ ...i })), discountAmount, totalAmount };
  let transactionId: TransactionRef | undefined;
  await probe('availability', (c) => c.availability({ cardSession }));
  await probe('availabilityTask', (c) => c.availabilityTask({ requestId, cardSession, ...basket }));
  transactionId = (await probe('checkout', (c) => c.checkout({ requestId, cardSession, ...basket })))?.transactionId;
  const noTransaction = 'not run: /checkout gave no transactionId';
  await probe(
    'status',
    transactionId ? (c) => c.status({ transactionId: transactionId! }) : noTransaction,
    (result, status) => {
      if (status.statusClass === 'successful' || status.statusClass === 'unsuccessful') {
        result.notes.push(`status '${status.status}' right after /checkout (expected a status in transit)`);
      }
    },
  );
  await probe(
    'cancel',
    transactionId ? (c) => c.cancel({ transactionId: transactionId! }) : noTransaction,
    (result, cancelled) => {
      // The class decides (a service's own word for cancelled is fine); a word the dialect does not know is listed
      // below.
      if (cancelled.statusClass === 'unsuccessful' || cancelled.statusClass === undefined) return;
      result.invalid.push({
        field: 'status',
        value: showValue(cancelled.status),
        message: 'expected an unsuccessful status after /cancel',
      });
      result.verdict = 'DIFFERS';
    },
  );
  const report: PayCheckReport = {
    ok: results.every((r) => r.verdict !== 'FAIL'),
    baseUrl: options.baseUrl,
    profile: client.profile,
    tokenHeader,
    tokenScheme: client.tokenScheme,
    cardSession,
    requestId,
    ...(transactionId ? { transactionId } : {}),
    results,
    advice: [],
    unmapped: { statuses: [...unmapped.statuses], codes: [...unmapped.codes], fields: [] },
  };
  report.unmapped.fields = missingFields(results, client.dialect);
  report.advice = adviseOn(report);
  return report;
}

/** The field of a reader's `<field>: <message>` line. */
const split = (line: string): [string, string] => {
  const at = line.indexOf(': ');
  return at < 0 ? [line, ''] : [line.slice(0, at), line.slice(at + 2)];
};

function judge(
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
