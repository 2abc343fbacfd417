import { z } from 'zod';
import { singleLine } from '../text.js';

/** What a Callback API event reports (the interface document, section 6: push delivery and reading). */
export const CallbackEventType = z
  .enum(['push.delivered', 'push.read', 'push.failed'])
  .meta({ id: 'CallbackEventType' });

/**
 * The body the wallet service POSTs to the account's callback URL, signed per
 * Standard Webhooks (`webhook-id` equals `eventId`).
 */
export const CallbackEvent = z
  .object({
    eventId: singleLine(z.string().min(1).max(128)),
    type: CallbackEventType,
    messageId: singleLine(z.string().min(1).max(128)),
    subId: singleLine(z.string().min(1).max(64)),
    msisdn: singleLine(z.string().min(1).max(15)),
    occurredAt: singleLine(z.string().max(64)).meta({ description: 'RFC 3339 time of the delivery or reading.' }),
  })
  .strict()
  .meta({ id: 'CallbackEvent' });

export type CallbackEventType = z.infer<typeof CallbackEventType>;
export type CallbackEvent = z.infer<typeof CallbackEvent>;
