import { createWebhookVerifier, type VerifiedWebhook, type WebhookHeaderSource } from './verifier.js';

/** Options of {@link verifyWebhook}. */
export interface VerifyWebhookOptions {
  /** Largest |now - webhook-timestamp| accepted, in seconds. Default 300, as Standard Webhooks recommends. */
  toleranceSeconds?: number;
  /** Now, in ms since the epoch. Default `Date.now()`. */
  now?: number;
}

/**
 * Verifies a Standard Webhooks request over its raw body: the headers are
 * there, the timestamp is within tolerance, and one of the `v1,` signatures
 * matches a secret (several secrets allow rotation). Constant-time compare.
 * Decodes the secrets on every call: a receiver should build one
 * {@link createWebhookVerifier} instead.
 *
 * @returns the webhook id, to de-duplicate by.
 * @throws WebhookError with a stable `code`.
 * @example
 * const { id } = verifyWebhook(secret, req.headers, rawBody);
 */
export function verifyWebhook(
  secrets: string | readonly string[],
  headers: WebhookHeaderSource,
  body: string | Uint8Array,
  { toleranceSeconds = 300, now = Date.now() }: VerifyWebhookOptions = {},
): VerifiedWebhook {
  return createWebhookVerifier(secrets, { toleranceSeconds }).verify(headers, body, now);
}
