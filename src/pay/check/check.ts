import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { CardSession, type TransactionRef } from '../../contracts/pay/bodies.js';
import { ConfigError } from '../../errors.js';
import { adviseOn } from './advice.js';
import { createRecorder, showValue } from './record.js';
import type { PayCheckProgress, PayCheckReport, PayCheckResult } from './types.js';
import { judge, type NotUnderstoodEvent } from './verdict.js';
import { createPayClient, type PayClient } from '../client.js';
import { missingFields } from './missing-fields.js';
import { ENDPOINTS } from '../endpoints.js';
import type { PayOperation } from '../events.js';
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
  const tokenHeader = options.tokenHeader ?? DEFAULT_TOKEN_HEADER;
  const { cardSession } = parsed.data;
  const requestId = (options.newId ?? (() => `wpk-check-${randomBytes(6).toString('hex')}`))();
  const prober = createProber(options, tokenHeader);
  const transactionId = await probeOperations(prober, cardSession, requestId);
  const { client, results, unmapped } = prober;
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

/** The probe of one operation: calls it (or skips it, the reason given as `call`), judges it, reports it. */
type Probe = <T>(
  operation: PayOperation,
  call: ((c: PayClient) => Promise<T>) | string,
  after?: (result: PayCheckResult, value: T) => void,
) => Promise<T | undefined>;

/** A Pay client without retries whose every exchange is recorded, the probe that judges each call, the results. */
interface Prober {
  client: PayClient;
  probe: Probe;
  results: PayCheckResult[];
  /** Words the dialect does not map, as the service wrote them, in the order first seen. */
  unmapped: { statuses: Set<string>; codes: Set<string> };
  /** The probe's transaction, once /checkout made one: a failed /cancel notes it may still wait in the app. */
  transactionId?: TransactionRef;
}

/** The prober of one run: every exchange recorded and masked, events the contract does not expect collected. */
function createProber(options: PayCheckOptions, tokenHeader: string): Prober {
  const secrets = options.secrets ?? [];
  const recorder = createRecorder(options.fetch ?? globalThis.fetch, tokenHeader, secrets);
  let events: NotUnderstoodEvent[] = [];
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
  const progress = (p: PayCheckProgress) => {
    try {
      options.onProgress?.(p);
    } catch {
      // A progress printer's bug must not end the probe.
    }
  };
  const prober: Prober = { client, results: [], unmapped, probe: async () => undefined };
  prober.probe = async (operation, call, after) => {
    const path = options.paths?.[operation] ?? ENDPOINTS[operation].path;
    progress({ type: 'start', operation, path });
    const from = recorder.exchanges.length;
    events = [];
    let value: Awaited<ReturnType<Exclude<typeof call, string>>> | undefined;
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
    if (ok) after?.(result, value as never);
    if (!ok && operation === 'cancel' && prober.transactionId) {
      result.notes.push(
        `the probe's invoice ${prober.transactionId} (1.00) may still wait in the app until it expires: do not ` +
          'confirm it',
      );
    }
    prober.results.push(result);
    progress({ type: 'done', result });
    return ok ? value : undefined;
  };
  return prober;
}

/** The five operations in the kit's order; the transaction /checkout made, if it made one. */
async function probeOperations(
  prober: Prober,
  cardSession: string,
  requestId: string,
): Promise<TransactionRef | undefined> {
  const { probe } = prober;
  const { items, discountAmount, totalAmount } = CHECK_BASKET;
  const basket = { items: items.map((i) => ({ ...i })), discountAmount, totalAmount };
  await probe('availability', (c) => c.availability({ cardSession }));
  await probe('availabilityTask', (c) => c.availabilityTask({ requestId, cardSession, ...basket }));
  const transactionId = (await probe('checkout', (c) => c.checkout({ requestId, cardSession, ...basket })))
    ?.transactionId;
  prober.transactionId = transactionId;
  const noTransaction = 'not run: /checkout gave no transactionId';
  await probe('status', transactionId ? (c) => c.status({ transactionId }) : noTransaction, (result, status) => {
    if (status.statusClass === 'successful' || status.statusClass === 'unsuccessful') {
      result.notes.push(`status '${status.status}' right after /checkout (expected a status in transit)`);
    }
  });
  await probe('cancel', transactionId ? (c) => c.cancel({ transactionId }) : noTransaction, (result, cancelled) => {
    // The class decides (a service's own word for cancelled is fine); a word the dialect does not know is listed
    // below.
    if (cancelled.statusClass === 'unsuccessful' || cancelled.statusClass === undefined) return;
    result.invalid.push({
      field: 'status',
      value: showValue(cancelled.status),
      message: 'expected an unsuccessful status after /cancel',
    });
    result.verdict = 'DIFFERS';
  });
  return transactionId;
}
