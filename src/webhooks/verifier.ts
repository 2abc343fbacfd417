import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookError } from './errors.js';
import { webhookKey } from './secret.js';
import type { WebhookHeaders } from './sign.js';

/** Where the three Standard Webhooks headers are read from: a fetch `Headers`, or Node's/any plain header record. */
export type WebhookHeaderSource = Headers | Partial<WebhookHeaders> | Record<string, string | string[] | undefined>;

/** Options of {@link createWebhookVerifier}. */
export interface WebhookVerifierOptions {
  /** Largest |now - webhook-timestamp| accepted, in seconds. Default 300, as Standard Webhooks recommends. */
  toleranceSeconds?: number;
  /** Now, in ms since the epoch. Default `Date.now`. */
  clock?: () => number;
}

/** A verified webhook: its id (to de-duplicate by) and its timestamp. */
export interface VerifiedWebhook {
  id: string;
  timestampSeconds: number;
}

/** Verifies Standard Webhooks requests against keys decoded once. */
export interface WebhookVerifier {
  /**
   * Checks the headers, the timestamp and the signature over the raw body.
   * @throws WebhookError with a stable `code`.
   */
  verify(headers: WebhookHeaderSource, body: string | Uint8Array, now?: number): VerifiedWebhook;
}

// A v1 signature is base64 of 32 bytes: exactly 44 characters ending in one '='.
const V1_SIGNATURE = /^[A-Za-z0-9+/]{43}=$/;
const TIMESTAMP = /^\d{1,12}$/;

function header(headers: WebhookHeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A verifier for one set of secrets (several allow rotation: old and new are
 * both accepted while senders switch). The secrets are decoded and checked
 * here, once, instead of on every request, so a bad secret fails at start-up.
 * Signatures are compared in constant time, every candidate against every key,
 * so the time taken does not tell which one matched.
 *
 * @throws WebhookError `WEBHOOK_SECRET_INVALID` when a secret is not `whsec_` + base64 of 24 to 64 bytes.
 * @example
 * const verifier = createWebhookVerifier([process.env.CALLBACK_SECRET!]);
 * const { id } = verifier.verify(request.headers, rawBody);
 */
export function createWebhookVerifier(
  secrets: string | readonly string[],
  { toleranceSeconds = 300, clock = Date.now }: WebhookVerifierOptions = {},
): WebhookVerifier {
  const list = typeof secrets === 'string' ? [secrets] : [...secrets];
  if (list.length === 0) throw new WebhookError('WEBHOOK_SECRET_INVALID', 'webhook secret: at least one is required');
  const keys = list.map((secret) => webhookKey(secret));
  return {
    verify(headers, body, now = clock()) {
      const id = header(headers, 'webhook-id');
      const timestamp = header(headers, 'webhook-timestamp');
      const signatures = header(headers, 'webhook-signature');
      if (!id || !timestamp || !signatures) {
        throw new WebhookError(
          'WEBHOOK_HEADERS_MISSING',
          'webhook-id, webhook-timestamp and webhook-signature are required',
        );
      }
      if (!TIMESTAMP.test(timestamp))
        throw new WebhookError('WEBHOOK_TIMESTAMP_STALE', 'webhook-timestamp: must be unix seconds');
      const timestampSeconds = Number(timestamp);
      if (Math.abs(Math.floor(now / 1000) - timestampSeconds) > toleranceSeconds) {
        throw new WebhookError(
          'WEBHOOK_TIMESTAMP_STALE',
          `webhook-timestamp: must be within ${toleranceSeconds} s of now`,
        );
      }
      // Only canonical v1 values count: a signature padded with characters base64 decoding would skip is not one.
      const presented: Buffer[] = [];
      for (const entry of signatures.split(' ')) {
        if (entry.length === 47 && entry.startsWith('v1,') && V1_SIGNATURE.test(entry.slice(3)))
          presented.push(Buffer.from(entry.slice(3), 'base64'));
      }
      let match = false;
      if (presented.length > 0) {
        const prefix = `${id}.${timestampSeconds}.`;
        for (const key of keys) {
          const expected = createHmac('sha256', key).update(prefix).update(body).digest();
          for (const candidate of presented) {
            if (timingSafeEqual(candidate, expected)) match = true;
          }
        }
      }
      if (!match) throw new WebhookError('WEBHOOK_SIGNATURE_INVALID', 'webhook-signature: no signature matches');
      return { id, timestampSeconds };
    },
  };
}
