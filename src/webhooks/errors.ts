import { KitError } from '../errors.js';

/** Why a webhook was refused. Stable: branch on it. */
export type WebhookErrorCode =
  | 'WEBHOOK_SECRET_INVALID'
  | 'WEBHOOK_HEADERS_MISSING'
  | 'WEBHOOK_TIMESTAMP_STALE'
  | 'WEBHOOK_SIGNATURE_INVALID';

/**
 * A webhook that failed verification, or a bad secret. The message names what
 * failed, never the secret, the signature or the body.
 */
export class WebhookError extends KitError {
  declare readonly code: WebhookErrorCode;

  constructor(code: WebhookErrorCode, message: string) {
    super(code, message);
  }
}
