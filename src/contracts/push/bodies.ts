import { z } from 'zod';
import { freeText, singleLine } from '../text.js';

/** Largest batch, and the document's validation message for it, word for word (section 2.5, 8). */
export const MAX_BATCH = 10_000;
export const BATCH_SIZE_MESSAGE = 'size must be between 0 and 10000';
/** The document's message for a missing or null subId, word for word. */
export const SUB_ID_NULL_MESSAGE = 'must not be null';

/** A subscriber number: digits only, country code first, 11 to 15 digits (E.164 without `+`). */
export const MSISDN = /^[1-9][0-9]{10,14}$/;

/** `subId`: required and not null (the document's words), 1 to 64 printable characters. */
export const SubId = singleLine(
  z
    .string({ error: (issue) => (issue.input == null ? SUB_ID_NULL_MESSAGE : 'must be a string') })
    .min(1, { error: 'must not be empty' })
    .max(64, { error: 'must be at most 64 characters' }),
).meta({ description: 'Subscription (campaign or topic) the message belongs to.', example: 'promo-2026-11' });

export const Msisdn = z
  .string({ error: 'must be a string of 11 to 15 digits' })
  .regex(MSISDN, { error: 'must be 11 to 15 digits, country code first, no +' })
  .meta({ example: '79991234567' });

export const PushMessage = z
  .object(
    {
      title: singleLine(
        z
          .string({ error: 'must be a string' })
          .min(1, { error: 'must not be empty' })
          .max(100, { error: 'must be at most 100 characters' }),
      ),
      text: freeText(
        z
          .string({ error: 'must be a string' })
          .min(1, { error: 'must not be empty' })
          .max(1000, { error: 'must be at most 1000 characters' }),
      ),
      deeplink: singleLine(z.url({ error: 'must be a URL' }).max(2048)).optional(),
    },
    { error: 'must be an object { title, text, deeplink? }' },
  )
  .strict()
  .meta({ id: 'PushMessage' });

// PUT /public/user/reset-password
export const ResetPasswordRequest = z
  .object({
    password: singleLine(
      z
        .string({ error: 'must be a string' })
        .min(12, { error: 'must be 12 to 128 characters' })
        .max(128, { error: 'must be 12 to 128 characters' }),
    ),
  })
  .strict()
  .meta({ id: 'ResetPasswordRequest' });
export const ResetPasswordResponse = z.object({ status: z.literal('OK') }).meta({ id: 'ResetPasswordResponse' });

// POST /public/push/single
export const SinglePushRequest = z
  .object({ msisdn: Msisdn, subId: SubId, message: PushMessage })
  .strict()
  .meta({ id: 'SinglePushRequest' });
export const SinglePushResponse = z
  .object({ messageId: z.string(), subId: z.string() })
  .meta({ id: 'SinglePushResponse' });

// POST /public/push/batch: bad numbers are rejected one by one, not the batch (a campaign goes on).
// Keys in this order so the errors come in the document's order: msisdn, then subId.
export const BatchPushRequest = z
  .object({
    msisdn: z
      .array(z.string({ error: 'must be a string' }), { error: 'must be a list of numbers' })
      .max(MAX_BATCH, { error: BATCH_SIZE_MESSAGE }),
    subId: SubId,
    message: PushMessage,
  })
  .strict()
  .meta({ id: 'BatchPushRequest' });
export const RejectedNumber = z
  .object({
    msisdn: z.string(),
    reason: z.enum(['INVALID_MSISDN', 'DUPLICATE', 'UNKNOWN_SUBSCRIBER']),
  })
  .meta({ id: 'RejectedNumber' });
export const BatchPushResponse = z
  .object({
    batchId: z.string(),
    subId: z.string(),
    accepted: z.number().int().meta({ description: 'Numbers a message was queued for.' }),
    rejected: z.array(RejectedNumber),
    messages: z
      .array(z.object({ msisdn: z.string(), messageId: z.string() }))
      .optional()
      .meta({ description: 'The message id of each accepted number.' }),
  })
  .meta({ id: 'BatchPushResponse' });

/** Where a message is (openapi/push.json). */
export const PushStatus = z.enum(['QUEUED', 'SENT', 'DELIVERED', 'READ', 'FAILED']).meta({ id: 'PushStatus' });

// GET /public/push/{messageId}
export const PushMessageState = z
  .object({
    messageId: z.string(),
    subId: z.string(),
    msisdn: z.string(),
    status: PushStatus,
    updatedAt: z.string().meta({ description: 'RFC 3339 time of the last change.' }),
  })
  .meta({ id: 'PushMessageState' });

export type PushMessage = z.infer<typeof PushMessage>;
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequest>;
export type SinglePushRequest = z.infer<typeof SinglePushRequest>;
export type SinglePushResponse = z.infer<typeof SinglePushResponse>;
export type BatchPushRequest = z.infer<typeof BatchPushRequest>;
export type BatchPushResponse = z.infer<typeof BatchPushResponse>;
export type RejectedNumber = z.infer<typeof RejectedNumber>;
export type PushStatus = z.infer<typeof PushStatus>;
export type PushMessageState = z.infer<typeof PushMessageState>;
