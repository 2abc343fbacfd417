import { z } from 'zod';

/** Header names of the Push API's 304 answer and of the Idempotency-Key extension. */
export const PUSH_HEADERS = {
  retryAfter: 'retry-after',
  retryAfterMs: 'x-retry-after-ms',
  idempotencyKey: 'idempotency-key',
  idempotentReplayed: 'idempotent-replayed',
} as const;

/** An `Idempotency-Key`: 1 to 128 printable ASCII characters. */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,128}$/;

/**
 * The optional `Idempotency-Key` header (an extension of the kit's sandbox and client, not in the interface
 * document).
 */
export const IdempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .regex(IDEMPOTENCY_KEY, { error: 'must be 1 to 128 printable characters' })
    .optional()
    .meta({
      description:
        'EXTENSION: the same key with the same body within 24 h answers the stored 200 again and sends nothing twice ' +
        '(header `Idempotent-Replayed: true`); with another body, 409 `IDEMPOTENCY_CONFLICT`. Lets a crashed ' +
        'campaign resume safely.',
      example: 'campaign-42-batch-7',
    }),
});

/** `{messageId}` of GET /public/push/{messageId}. */
export const MessageIdPath = z.object({
  messageId: z
    .string()
    .min(1)
    .max(128)
    .meta({ param: { name: 'messageId', in: 'path' }, example: 'pm_3f2a9c0b1d4e5f60718293a4' }),
});
