/** Schemas of the simulator's webhook-delivery inspection routes (GET /sandbox/webhooks). */
import { z } from '@hono/zod-openapi';
import { singleLine } from '../../contracts/text.js';

/** GET /sandbox/webhooks filters. */
export const WebhooksQuery = z.object({
  topic: singleLine(z.string().max(32))
    .optional()
    .openapi({ param: { name: 'topic', in: 'query' }, example: 'pay' }),
  owner: singleLine(z.string().max(64))
    .optional()
    .openapi({ param: { name: 'owner', in: 'query' } }),
});
/** A webhook delivery and its attempts (the outbox's record). */
export const Delivery = z
  .object({
    id: z.string(),
    topic: z.string(),
    owner: z.string(),
    eventType: z.string(),
    url: z.string(),
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.number().int(),
    nextAttemptAt: z.string().nullable(),
    lastError: z.string().nullable(),
    createdAt: z.string(),
    deliveredAt: z.string().nullable(),
    body: z.string(),
    history: z.array(
      z.object({
        attempt: z.number().int(),
        at: z.string(),
        httpStatus: z.number().int().nullable(),
        error: z.string().nullable(),
        durationMs: z.number(),
      }),
    ),
  })
  .openapi('SandboxDelivery');
/** Webhook deliveries, newest first. */
export const DeliveriesResponse = z.object({ deliveries: z.array(Delivery) }).openapi('SandboxDeliveries');
/** The `{id}` path parameter of a delivery. */
export const DeliveryPath = z.object({
  id: singleLine(z.string().max(128)).openapi({ param: { name: 'id', in: 'path' } }),
});
