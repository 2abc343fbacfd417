export { WebhookError, type WebhookErrorCode } from './errors.js';
export { generateWebhookSecret } from './secret.js';
export { signWebhook, type WebhookHeaders } from './sign.js';
export { verifyWebhook, type VerifyWebhookOptions } from './verify.js';
export {
  createWebhookVerifier,
  type VerifiedWebhook,
  type WebhookHeaderSource,
  type WebhookVerifier,
  type WebhookVerifierOptions,
} from './verifier.js';
