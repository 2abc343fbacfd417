import { z } from 'zod';
import { singleLine } from '../text.js';
import { answerFieldsSchema } from './field-names.js';
import { PAY_ERROR_STATUS, type PayErrorCode } from './errors.js';
import { StatusClass, TRANSITIONS, TransactionStatus, statusClass } from './statuses.js';

/**
 * A Pay service's own words. The interface document leaves its status names,
 * error codes and error bodies "not shown", so the kit is told them: each
 * status word with its class, and the error codes of each refusal the payment
 * session branches on. They are merged over the kit's own words (the six
 * lower-case statuses and the codes of openapi/pay.json), which stay
 * understood; a configured word wins over the kit's.
 */

/** The refusals a dialect may name, as configured, and the kit's code each one stands for. */
export const DIALECT_ERROR_KEYS = {
  cardSessionInvalid: 'CARD_SESSION_INVALID',
  tokenInvalid: 'TOKEN_INVALID',
  invalidState: 'INVALID_STATE',
  idempotencyConflict: 'IDEMPOTENCY_CONFLICT',
  amountMismatch: 'AMOUNT_MISMATCH',
  notFound: 'NOT_FOUND',
  badRequest: 'BAD_REQUEST',
} as const satisfies Record<string, PayErrorCode>;

/** A key of `errorCodes`. */
export type DialectErrorKey = keyof typeof DIALECT_ERROR_KEYS;

const KEYS = Object.keys(DIALECT_ERROR_KEYS) as [DialectErrorKey, ...DialectErrorKey[]];
const word = singleLine(
  z
    .string({ error: 'must be a string' })
    .min(1, { error: 'must not be empty' })
    .max(64, { error: 'must be at most 64 characters' }),
);

/**
 * `pay.dialect`'s rule: `statuses` (word to class), `errorCodes` (refusal to the service's codes) and `fields` (the
 * answers' field names, the kit's to the service's).
 */
export const payDialectSchema = z
  .object({
    statuses: z
      .record(word, z.enum(StatusClass.options, { error: `must be one of ${StatusClass.options.join(', ')}` }))
      .refine((s) => Object.keys(s).length <= 256, { error: 'must name at most 256 statuses' })
      .default({}),
    errorCodes: z
      .partialRecord(z.enum(KEYS, { error: `must be one of ${KEYS.join(', ')}` }), z.array(word).max(64))
      .default({}),
    /** The answers' field names, the kit's to the service's (`{ "providers": "paymentMethods" }`). */
    fields: answerFieldsSchema.default({}),
  })
  .strict()
  .superRefine((d, ctx) => {
    const owner = new Map<string, string>();
    for (const [key, codes] of Object.entries(d.errorCodes)) {
      for (const code of codes ?? []) {
        const first = owner.get(code);
        if (first !== undefined && first !== key) {
          ctx.addIssue({ code: 'custom', path: ['errorCodes', key], message: `${code} is already a code of ${first}` });
        }
        owner.set(code, key);
      }
    }
  });

/** A dialect as configured (`pay.dialect`). */
export type PayDialectConfig = z.input<typeof payDialectSchema>;

/** A dialect ready to use: the configured words over the kit's. */
export interface PayDialect {
  /** The class of a status word; undefined when neither the configuration nor the kit knows it. */
  classOf(status: string): StatusClass | undefined;
  /** The kit's code for a service's error code; undefined when it is not mapped. */
  codeOf(serverCode: string): PayErrorCode | undefined;
  /** Whether the kit itself knows the word (one of its six statuses): its transitions then apply. */
  isKitStatus(status: string): status is TransactionStatus;
  /** The kit's field name for each of the service's that `fields` maps (empty: the kit's own names). */
  readonly kitFieldNames: ReadonlyMap<string, string>;
  /** The service's name of a kit field: as `fields` maps it, else the kit's own. */
  fieldName(kitName: string): string;
}

/**
 * Builds a dialect (the configuration is validated by {@link payDialectSchema}
 * wherever it is read; this trusts it).
 *
 * @example
 * const d = resolvePayDialect({
 *   statuses: { PAID: 'successful' },
 *   errorCodes: { cardSessionInvalid: ['SESSION_EXPIRED'] },
 * });
 * d.classOf('PAID'); // 'successful'
 * d.codeOf('SESSION_EXPIRED'); // 'CARD_SESSION_INVALID'
 */
export function resolvePayDialect(config: PayDialectConfig = {}): PayDialect {
  const statuses = new Map<string, StatusClass>(TransactionStatus.options.map((s) => [s, statusClass(s)]));
  for (const [status, cls] of Object.entries(config.statuses ?? {})) statuses.set(status, cls);
  const codes = new Map<string, PayErrorCode>((Object.keys(PAY_ERROR_STATUS) as PayErrorCode[]).map((c) => [c, c]));
  // The kit's sandbox also answers 415 for a body that is not JSON by type: a bad request.
  codes.set('UNSUPPORTED_MEDIA_TYPE', 'BAD_REQUEST');
  for (const [key, list] of Object.entries(config.errorCodes ?? {})) {
    for (const code of list ?? []) codes.set(code, DIALECT_ERROR_KEYS[key as DialectErrorKey]);
  }
  const kit = new Set<string>(TransactionStatus.options);
  const fields = Object.entries(config.fields ?? {}) as Array<[string, string]>;
  const serviceNames = new Map(fields);
  return {
    kitFieldNames: new Map(fields.map(([kitName, service]) => [service, kitName])),
    fieldName: (kitName) => serviceNames.get(kitName) ?? kitName,
    classOf: (status) => statuses.get(status),
    codeOf: (serverCode) => codes.get(serverCode),
    isKitStatus: (status): status is TransactionStatus =>
      kit.has(status) && !Object.hasOwn(config.statuses ?? {}, status),
  };
}

/**
 * Whether `to` can follow `from` in the kit's words through one or more moves. A poll can miss intermediate
 * states (created, then already succeeded), while a state that cannot follow is stale (an out-of-order webhook).
 */
function kitReachable(from: TransactionStatus, to: TransactionStatus, seen = new Set<TransactionStatus>()): boolean {
  for (const next of TRANSITIONS[from]) {
    if (next === to) return true;
    if (!seen.has(next)) {
      seen.add(next);
      if (kitReachable(next, to, seen)) return true;
    }
  }
  return false;
}

/**
 * Whether status `to` may follow `from` (through one or more moves): a state
 * that cannot is stale (an out-of-order webhook, a slow poll). Two kit words
 * follow the kit's transitions; otherwise only classes are known: nothing
 * follows a success, only a success follows a failure (the bank's answer to
 * a payment cancelled too late, the document's section 7, last line), and
 * anything follows a word in transit or one the dialect does not know.
 */
export function statusMayFollow(d: PayDialect, from: string, to: string): boolean {
  if (d.isKitStatus(from) && d.isKitStatus(to)) return kitReachable(from, to);
  const was = d.classOf(from);
  if (was === 'successful') return false;
  if (was === 'unsuccessful') return d.classOf(to) === 'successful';
  return true;
}

/**
 * A transaction's state with its class from the dialect, whatever class the
 * service itself wrote; without `statusClass` when the dialect does not know
 * the word.
 */
export function classed<T extends { status: string; statusClass?: StatusClass }>(d: PayDialect, state: T): T {
  const { statusClass: _said, ...rest } = state;
  const cls = d.classOf(state.status);
  return (cls === undefined ? rest : { ...rest, statusClass: cls }) as T;
}

/** The kit's own dialect: what the sandbox speaks by default. */
export const KIT_DIALECT: PayDialect = resolvePayDialect();
