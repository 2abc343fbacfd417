import { z } from '@hono/zod-openapi';

/** What a Callback API event reports (DESIGN.md section 5). */
export const CallbackEventType = z.enum(['push.delivered', 'push.read', 'push.failed']).openapi('CallbackEventType');

/**
 * The body the wallet service POSTs to the account's callback URL, signed per
 * Standard Webhooks (`webhook-id` equals `eventId`).
 */
export const CallbackEvent = z.object({
  eventId: z.string().min(1).max(128),
  type: CallbackEventType,
  messageId: z.string().min(1).max(128),
  subId: z.string().min(1).max(64),
  msisdn: z.string().min(1).max(15),
  occurredAt: z.string().openapi({ description: 'RFC 3339 time of the delivery or reading.' }),
}).strict().openapi('CallbackEvent');

export type CallbackEventType = z.infer<typeof CallbackEventType>;
export type CallbackEvent = z.infer<typeof CallbackEvent>;
