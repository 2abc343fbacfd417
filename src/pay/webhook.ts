import { JSON_TOO_DEEP_MESSAGE, jsonTooDeep } from '../contracts/json-depth.js';
import { inSpan } from '../telemetry/tracing.js';
import { ANSWER_READERS, type TransactionAnswer } from '../contracts/pay/answers.js';
import { classed, KIT_DIALECT, type PayDialect } from '../contracts/pay/dialect.js';
import { errorEnvelope } from '../contracts/errors.js';
import { DATABASE_RETRY_AFTER_SECONDS, KitError } from '../errors.js';
import { currentRequestId } from '../log/request-id.js';
import { WebhookError } from '../webhooks/errors.js';
import { verifyWebhook } from '../webhooks/verify.js';
import type { TransactionUpdates } from './updates.js';

/**
 * A `transaction.updated` event as read: its `data` read like a /status answer (tolerantly, the status kept as the
 * service wrote it and classed by the dialect).
 */
export interface TransactionUpdate {
  type: 'transaction.updated';
  timestamp?: string;
  data: TransactionAnswer;
}

/** Options of {@link createPayWebhookHandler}. */
export interface PayWebhookOptions {
  /** The partner's webhook secret(s), `whsec_...`; several during a rotation. */
  secrets: string | readonly string[];
  /** Where verified states go: the sessions' {@link TransactionUpdates}. */
  updates?: TransactionUpdates;
  /** Called with each new verified event (after `updates`); throw to have the service redeliver. */
  onEvent?: (event: TransactionUpdate, webhookId: string) => void | Promise<void>;
  /** The service's words (the Pay client's `dialect`): how the event's status is classed. Default: the kit's. */
  dialect?: PayDialect;
  /** Largest |now - webhook-timestamp|, seconds. Default 300. */
  toleranceSeconds?: number;
  /** Now, in ms. Default `Date.now`. */
  clock?: () => number;
  /** How many recent webhook ids are remembered to drop redeliveries. Default 10 000. */
  remember?: number;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/**
 * A fetch-style handler (`(Request) => Promise<Response>`, mount it in Hono,
 * or any server with Web Requests) for the Pay service's `transaction.updated`
 * webhooks: verifies the Standard Webhooks signature over the raw body
 * (`verifyWebhook`), checks the event's shape, drops redeliveries by
 * `webhook-id`, publishes the state, and answers 204. Refusals: 401 (signature,
 * stale, headers) or 400 (not the contract's event), in the `{ status, errors }`
 * envelope; a throwing `onEvent` answers 500 so the service retries, or 503
 * `DATABASE_UNAVAILABLE` with `Retry-After` when it threw that (the state could not be written yet).
 *
 * @example
 * const updates = createTransactionUpdates();
 * app.post('/webhooks/pay', (c) => handler(c.req.raw));
 * const handler = createPayWebhookHandler({ secrets: process.env.PAY_WEBHOOK_SECRET!, updates });
 */
export function createPayWebhookHandler(options: PayWebhookOptions): (request: Request) => Promise<Response> {
  const clock = options.clock ?? Date.now;
  const remember = options.remember ?? 10_000;
  const seen = new Set<string>();
  const handle = async (request: Request): Promise<Response> => {
    const body = new Uint8Array(await request.arrayBuffer());
    let id: string;
    try {
      ({ id } = verifyWebhook(options.secrets, request.headers, body, {
        toleranceSeconds: options.toleranceSeconds,
        now: clock(),
      }));
    } catch (error) {
      if (error instanceof WebhookError)
        return json(401, errorEnvelope(error.code, [error.message], currentRequestId()));
      throw error;
    }
    if (seen.has(id)) return new Response(null, { status: 204 });
    let value: unknown;
    try {
      const text = new TextDecoder().decode(body);
      if (jsonTooDeep(text))
        return json(400, errorEnvelope('BAD_REQUEST', [JSON_TOO_DEEP_MESSAGE], currentRequestId()));
      value = JSON.parse(text);
    } catch {
      return json(400, errorEnvelope('BAD_REQUEST', ['body: must be JSON'], currentRequestId()));
    }
    const parsed = readUpdate(value, options.dialect ?? KIT_DIALECT);
    if (!parsed.ok) return json(400, errorEnvelope('BAD_REQUEST', parsed.errors, currentRequestId()));
    options.updates?.publish(parsed.event.data);
    try {
      await options.onEvent?.(parsed.event, id);
    } catch (error) {
      if (error instanceof KitError && error.code === 'DATABASE_UNAVAILABLE') {
        const why = ['The database is unavailable: retry later'];
        const envelope = errorEnvelope('DATABASE_UNAVAILABLE', why, currentRequestId());
        return json(503, envelope, { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) });
      }
      return json(500, errorEnvelope('INTERNAL', ['the event could not be processed'], currentRequestId()));
    }
    seen.add(id);
    if (seen.size > remember) seen.delete(seen.values().next().value!);
    return new Response(null, { status: 204 });
  };
  // A span (when tracing) under the delivery's: the cash desk's server span, which joined the sender's traceparent.
  return (request) =>
    inSpan(
      'pay webhook',
      () => handle(request),
      (answer) => answer.status >= 400,
    );
}

function readUpdate(
  value: unknown,
  dialect: PayDialect,
): { ok: true; event: TransactionUpdate } | { ok: false; errors: string[] } {
  const event =
    typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  if (event.type !== 'transaction.updated') return { ok: false, errors: ['type: must be transaction.updated'] };
  const read = ANSWER_READERS.status(event.data, {});
  if (!read.ok) return { ok: false, errors: read.errors.map((e) => `data.${e}`) };
  const timestamp = typeof event.timestamp === 'string' ? { timestamp: event.timestamp } : {};
  return { ok: true, event: { type: 'transaction.updated', ...timestamp, data: classed(dialect, read.value) } };
}
