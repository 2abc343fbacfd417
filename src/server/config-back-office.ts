/** The `serve` configuration's back-office keys (`backOffice`) and till stores, validated with the rest. */
import { z } from 'zod';
import { BACK_OFFICE_SCOPES } from '../cashdesk/back-office/credentials.js';

const ID = /^[A-Za-z0-9._-]{1,64}$/;
const idRule = { error: 'must be 1 to 64 of [A-Za-z0-9._-]' } as const;
const keyRule = { error: 'must be a string of 24 to 512 characters' } as const;

/** A till's store (shop): reports group by it. */
export const storeField = z.string().regex(ID, idRule).optional();

/** One back-office key: `{ id, key, scopes, maxRefundAmount? }`. */
const backOfficeKey = z
  .object({
    id: z.string().regex(ID, idRule),
    key: z.string(keyRule).min(24, keyRule).max(512, keyRule),
    scopes: z
      .array(z.enum(BACK_OFFICE_SCOPES, { error: `must be one of ${BACK_OFFICE_SCOPES.join(', ')}` }))
      .min(1, { error: 'must list at least one scope' }),
    // Kopecks; one refund over it is refused (REFUND_LIMIT_EXCEEDED).
    maxRefundAmount: z
      .number({ error: 'must be a positive integer (kopecks)' })
      .int({ error: 'must be a positive integer (kopecks)' })
      .min(1, { error: 'must be a positive integer (kopecks)' })
      .optional(),
  })
  .strict();

/** `backOffice`: the back-office keys (default none: the back-office routes answer 401 to every caller). */
export const backOfficeSection = z
  .array(backOfficeKey, { error: 'must be a list of { id, key, scopes }' })
  .refine((keys) => new Set(keys.map((k) => k.id)).size === keys.length, { error: 'ids must be unique' })
  .refine((keys) => new Set(keys.map((k) => k.key)).size === keys.length, { error: 'keys must be unique' })
  .default([]);

/** The issue when a key is both a till's and a back-office key: each key is one or the other, never both. */
export function sharedKeyIssues(tills: ReadonlyArray<{ key: string }>, backOffice: ReadonlyArray<{ key: string }>) {
  const tillKeys = new Set(tills.map((t) => t.key));
  return backOffice.some((k) => tillKeys.has(k.key)) ? ['backOffice: a key must not also be a till key'] : [];
}
