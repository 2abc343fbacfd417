import { z } from '@hono/zod-openapi';
import { CallbackEventType } from '../contracts/callback/index.js';

/** A message's delivery and read state, as the callbacks received so far tell it. */
export const MessageDeliveryState = z
  .object({
    messageId: z.string(),
    subId: z.string(),
    msisdn: z.string(),
    status: z
      .enum(['DELIVERED', 'READ', 'FAILED'])
      .openapi({ description: 'READ once read; else the latest of DELIVERED and FAILED.' }),
    deliveredAt: z.string().nullable(),
    readAt: z.string().nullable(),
    failedAt: z.string().nullable(),
    updatedAt: z.string().openapi({ description: 'RFC 3339 time of the latest event.' }),
    events: z.array(
      z.object({ eventId: z.string(), type: CallbackEventType, occurredAt: z.string(), receivedAt: z.string() }),
    ),
  })
  .openapi('MessageDeliveryState');

export type MessageDeliveryState = z.infer<typeof MessageDeliveryState>;
