export { WebhookError, type WebhookErrorCode } from '../webhooks/errors.js';
export { generateWebhookSecret } from '../webhooks/secret.js';
export { signWebhook, type WebhookHeaders } from '../webhooks/sign.js';
export { verifyWebhook, type VerifyWebhookOptions } from '../webhooks/verify.js';
export {
  createWebhookVerifier,
  type VerifiedWebhook,
  type WebhookHeaderSource,
  type WebhookVerifier,
  type WebhookVerifierOptions,
} from '../webhooks/verifier.js';
