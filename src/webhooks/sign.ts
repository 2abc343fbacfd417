import { createHmac } from 'node:crypto';
import { webhookKey } from './secret.js';

/** The three headers of a Standard Webhooks request. */
export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The signature of one message: base64 HMAC-SHA256 over `id.timestamp.body`. */
export function webhookSignature(
  key: Uint8Array,
  id: string,
  timestampSeconds: number,
  body: string | Uint8Array,
): Buffer {
  return createHmac('sha256', key).update(`${id}.${timestampSeconds}.`).update(body).digest();
}

/**
 * Signs a webhook per Standard Webhooks: send `body` exactly as given, with these headers.
 *
 * @example
 * const headers = signWebhook(secret, { id: 'msg_1', timestampSeconds: Math.floor(Date.now() / 1000), body });
 * await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
 */
export function signWebhook(
  secret: string | Uint8Array,
  message: { id: string; timestampSeconds: number; body: string | Uint8Array },
): WebhookHeaders {
  const key = typeof secret === 'string' ? webhookKey(secret) : secret;
  const signature = webhookSignature(key, message.id, message.timestampSeconds, message.body).toString('base64');
  return {
    'webhook-id': message.id,
    'webhook-timestamp': String(message.timestampSeconds),
    'webhook-signature': `v1,${signature}`,
  };
}
