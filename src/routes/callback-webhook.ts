import { createRoute, z } from '@hono/zod-openapi';
import { webhookSecurity } from './webhook-security.js';
import { CallbackEvent } from '../contracts/callback/events.js';

/** The webhook's name in the OpenAPI document's `webhooks`. */
export const CALLBACK_WEBHOOK_NAME = 'pushEvent';

/** Standard Webhooks headers every callback carries; the receiver verifies them over the raw body. */
export const CallbackHeaders = z.object({
  'webhook-id': z.string().min(1).max(128).meta({
    description: "The event's id, equal to `eventId`; de-duplicate by it (delivery is at least once).",
    example: 'evt_5b1c0e9d2a7f43c18e6d',
  }),
  'webhook-timestamp': z
    .string()
    .regex(/^\d{1,12}$/)
    .meta({
      description: 'Unix seconds of this attempt; reject stale ones (e.g. more than 5 min off).',
      example: '1795426800',
    }),
  'webhook-signature': z
    .string()
    .min(1)
    .meta({
      description:
        'Space-separated `v1,<base64 HMAC-SHA256(key, "<webhook-id>.<webhook-timestamp>.<body>")>`, key = the ' +
        "base64 part of the account's `whsec_` secret.",
      example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
    }),
});

/**
 * The Callback API (the interface document, section 6): the wallet service POSTs each
 * delivery, reading and failure of a push message to the account's callback
 * URL. Served by the merchant, so it is a `webhook` of the Push API document.
 */
export const callbackWebhook = createRoute({
  operationId: 'pushEvent',
  method: 'post',
  path: CALLBACK_WEBHOOK_NAME,
  tags: ['Callback API'],
  summary: 'A push message was delivered, read, or could not be delivered',
  description:
    "Signed per Standard Webhooks with the account's callback secret. Retried on any non-2xx answer or a " +
    'timeout (10 s): immediately, then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (8 attempts), the same ' +
    '`webhook-id` each time. Verify over the raw body, reject stale timestamps, de-duplicate by `webhook-id`, ' +
    'store durably, then answer 2xx.',
  security: webhookSecurity,
  request: {
    headers: CallbackHeaders,
    body: { required: true, content: { 'application/json': { schema: CallbackEvent } } },
  },
  responses: {
    200: { description: 'Stored (any 2xx will do; the body is ignored).' },
    204: { description: 'Stored.' },
    default: { description: 'Anything else (and no answer within 10 s) is retried on the schedule.' },
  },
});
