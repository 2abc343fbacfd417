import type { OpenAPIHono } from '@hono/zod-openapi';

/** The name of the Standard Webhooks signature scheme in the kit's OpenAPI documents. */
export const WEBHOOK_SECURITY_SCHEME = 'standardWebhooks';

/** `security` of a webhook operation: its signature, checked by the receiver. */
export const webhookSecurity = [{ [WEBHOOK_SECURITY_SCHEME]: [] }];

/**
 * Declares the Standard Webhooks signature as a security scheme. OpenAPI has no
 * type for a signature over the body, so it is an apiKey in the
 * `webhook-signature` header whose description says how to check it.
 */
export function registerWebhookSecurity(app: Pick<OpenAPIHono, 'openAPIRegistry'>): void {
  app.openAPIRegistry.registerComponent('securitySchemes', WEBHOOK_SECURITY_SCHEME, {
    type: 'apiKey',
    in: 'header',
    name: 'webhook-signature',
    description:
      'Standard Webhooks: `v1,<base64 HMAC-SHA256(key, "<webhook-id>.<webhook-timestamp>.<raw body>")>`, key = ' +
      'the base64 part of the `whsec_` secret; reject stale `webhook-timestamp` values and de-duplicate by ' +
      '`webhook-id`.',
  });
}
