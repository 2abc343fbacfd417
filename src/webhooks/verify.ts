import { timingSafeEqual } from 'node:crypto';
import { WebhookError } from './errors.js';
import { webhookKey } from './secret.js';
import { webhookSignature } from './sign.js';

/** Options of {@link verifyWebhook}. */
export interface VerifyWebhookOptions {
  /** Largest |now - webhook-timestamp| accepted, in seconds. Default 300, as Standard Webhooks recommends. */
  toleranceSeconds?: number;
  /** Now, in ms since the epoch. Default `Date.now()`. */
  now?: number;
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Verifies a Standard Webhooks request over its raw body: the headers are
 * there, the timestamp is within tolerance, and one of the `v1,` signatures
 * matches a secret (several secrets allow rotation). Constant-time compare.
 *
 * @returns the webhook id, to de-duplicate by.
 * @throws WebhookError with a stable `code`.
 * @example
 * const id = verifyWebhook(secret, req.headers, rawBody);
 */
export function verifyWebhook(secrets: string | readonly string[], headers: HeaderSource, body: string | Uint8Array,
  { toleranceSeconds = 300, now = Date.now() }: VerifyWebhookOptions = {}): { id: string; timestampSeconds: number } {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) {
    throw new WebhookError('WEBHOOK_HEADERS_MISSING', 'webhook-id, webhook-timestamp and webhook-signature are required');
  }
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookError('WEBHOOK_TIMESTAMP_STALE', 'webhook-timestamp: must be unix seconds');
  const timestampSeconds = Number(timestamp);
  if (Math.abs(Math.floor(now / 1000) - timestampSeconds) > toleranceSeconds) {
    throw new WebhookError('WEBHOOK_TIMESTAMP_STALE', `webhook-timestamp: must be within ${toleranceSeconds} s of now`);
  }
  const presented = signatures.split(' ').flatMap((entry) => {
    const [version, value] = entry.split(',', 2);
    return version === 'v1' && value ? [Buffer.from(value, 'base64')] : [];
  });
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    const expected = webhookSignature(webhookKey(secret), id, timestampSeconds, body);
    // Every candidate is compared, so the time taken does not tell which one matched.
    let match = false;
    for (const candidate of presented) {
      if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) match = true;
    }
    if (match) return { id, timestampSeconds };
  }
  throw new WebhookError('WEBHOOK_SIGNATURE_INVALID', 'webhook-signature: no signature matches');
}
