import { z } from 'zod';
import { singleLine } from '../text.js';

/**
 * The answers' field names the interface document does not show (the
 * provider list and its entries, the default flag, the transaction's id and
 * status...), by the kit's name. A service that writes them otherwise is told
 * through `pay.dialect.fields` (the kit's name to the service's); an answer is
 * read after its fields are renamed back to the kit's.
 */
export const ANSWER_FIELDS = [
  'providers',
  'walletPayIsDefault',
  'providerId',
  'name',
  'available',
  'message',
  'transactionId',
  'requestId',
  'status',
  'reason',
  'taskId',
  'totalAmount',
  'refundedAmount',
  'updatedAt',
  'refundId',
  'amount',
] as const;

/** One of {@link ANSWER_FIELDS}. */
export type AnswerField = (typeof ANSWER_FIELDS)[number];

const serviceName = singleLine(
  z
    .string({ error: 'must be a string' })
    .min(1, { error: 'must not be empty' })
    .max(64, { error: 'must be at most 64 characters' }),
);

/** `pay.dialect.fields`' rule: one level, kit names to the service's, no service name used twice. */
export const answerFieldsSchema = z
  .partialRecord(z.enum(ANSWER_FIELDS, { error: `must be one of ${ANSWER_FIELDS.join(', ')}` }), serviceName)
  .superRefine((fields, ctx) => {
    const owner = new Map<string, string>();
    for (const [kit, service] of Object.entries(fields)) {
      const first = owner.get(service!);
      if (first !== undefined) ctx.addIssue({ code: 'custom', path: [kit], message: `${service} is already ${first}` });
      owner.set(service!, kit);
    }
  });

/** `pay.dialect.fields` as configured. */
export type AnswerFieldsConfig = z.output<typeof answerFieldsSchema>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Renames an answer's fields from the service's names to the kit's: the top object's, and those of objects in
 * its lists (the providers). A field the service names like one of the kit's, while the map gives that kit name
 * another, is kept under its own name with a `~` so it is reported unknown, never read as the kit's.
 */
export function withKitNames(json: unknown, kitNameOf: ReadonlyMap<string, string>): unknown {
  return renameFields(json, kitNameOf);
}

/**
 * Renames the fields of an answer by `names` (from one side's names to the other's), the top object's and those of
 * objects in its lists; the reading direction is {@link withKitNames}, the writing one a service's (the sandbox's).
 */
export function renameFields(json: unknown, names: ReadonlyMap<string, string>): unknown {
  if (names.size === 0 || !isObject(json)) return json;
  return renamed(json, names, true);
}

function renamed(value: Record<string, unknown>, kitNameOf: ReadonlyMap<string, string>, deep: boolean) {
  const taken = new Set(kitNameOf.values());
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const kit = kitNameOf.get(key) ?? (taken.has(key) ? `~${key}` : key);
    out[kit] =
      deep && Array.isArray(field)
        ? field.map((entry) => (isObject(entry) ? renamed(entry, kitNameOf, false) : entry))
        : field;
  }
  return out;
}
