import { randomBytes } from 'node:crypto';
import { WebhookError } from './errors.js';

const PREFIX = 'whsec_';

/**
 * A new Standard Webhooks secret: `whsec_` and 32 random bytes in base64.
 *
 * @example
 * const secret = generateWebhookSecret(); // 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
 */
export function generateWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

/** The key bytes of a `whsec_...` secret (the prefix is optional, as in the reference libraries). */
export function webhookKey(secret: string): Buffer {
  const encoded = secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded))
    throw new WebhookError('WEBHOOK_SECRET_INVALID', 'webhook secret: must be whsec_ followed by base64');
  const key = Buffer.from(encoded, 'base64');
  if (key.length < 24 || key.length > 64)
    throw new WebhookError('WEBHOOK_SECRET_INVALID', 'webhook secret: must hold 24 to 64 bytes');
  return key;
}
