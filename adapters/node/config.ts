import { z } from 'zod';
import { ALGORYTHMS, type Algorythm, PASSWORD_SCHEMES, type PasswordScheme } from '../../src/contracts/barcode.js';
import { ConfigError } from '../../src/errors.js';
import type { SyncStore, VerificationStore } from '../../src/stores/store.js';
import { isHex } from './hex.js';
import { tokenSchemeSchema } from '../../src/contracts/pay/token.js';
import type { SignFunction } from './token-scheme.js';
import { validationErrors } from '../../src/contracts/validation-errors.js';

/** Printable ASCII without space: what a scanner reliably reproduces. */
const PRINTABLE = /^[\x21-\x7e]+$/;
/** Characters a card number or session may hold; a delimiter must avoid them. */
const FIELD_CHAR = /[0-9A-Za-z-]/;

const int = (min: number, max: number) => {
  const error = `must be an integer from ${min} to ${max}`;
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};

/** The seven init parameters of section 2.1, in the document's spelling. */
export const initParametersSchema = z.object({
  algorythm: z.enum(ALGORYTHMS as [Algorythm, ...Algorythm[]], { error: 'must be HMACSHA256 or HMACSHA1' }),
  passLength: int(1, 10),
  prefix: z
    .string({ error: 'must be 1 to 16 printable ASCII characters' })
    .regex(PRINTABLE, { error: 'must be 1 to 16 printable ASCII characters' })
    .max(16, { error: 'must be 1 to 16 printable ASCII characters' })
    .default('CM'),
  key: z
    .string({ error: 'must be hex of at least 16 bytes' })
    .refine((k) => isHex(k) && k.length >= 32, { error: 'must be hex of at least 16 bytes' })
    .refine((k) => k.length <= 2048, { error: 'must be hex of at most 1024 bytes' }),
  interval: int(1, 86_400),
  cardSessionLength: int(1, 64),
  delimeter: z
    .string({ error: 'must be 1 to 4 printable ASCII characters other than letters, digits and -' })
    .regex(PRINTABLE, { error: 'must be 1 to 4 printable ASCII characters other than letters, digits and -' })
    .max(4, { error: 'must be 1 to 4 printable ASCII characters other than letters, digits and -' })
    .refine((d) => !FIELD_CHAR.test(d), { error: 'must not contain letters, digits or -, which card numbers use' }),
});

const storeSchema = z.custom<VerificationStore>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as VerificationStore).claim === 'function' &&
    typeof (value as VerificationStore).synchronous === 'boolean',
  { error: 'must be a store (MemoryStore, RedisStore or your own) or false' },
);

/** How many previous keys a rotation may keep accepted at once. */
export const MAX_PREVIOUS_KEYS = 4;

/**
 * `scheme` and `previousKeys`: the password scheme and a key rotation (the README's Barcodes), shared with the server's
 * config.
 */
export const schemeFields = {
  scheme: z
    .enum(PASSWORD_SCHEMES as [PasswordScheme, ...PasswordScheme[]], { error: 'must be rfc6238 or card-bound' })
    .default('rfc6238'),
  previousKeys: z
    .array(
      z
        .string({ error: 'must be hex of at least 16 bytes' })
        .refine((k) => isHex(k) && k.length >= 32, { error: 'must be hex of at least 16 bytes' })
        .refine((k) => k.length <= 2048, { error: 'must be hex of at most 1024 bytes' }),
      { error: 'must be a list of hex keys' },
    )
    .max(MAX_PREVIOUS_KEYS, { error: `must hold at most ${MAX_PREVIOUS_KEYS} keys` })
    .default([]),
};

/** What a bonus hook answers: at once, or with a promise. */
export type BonusAnswer = boolean | Promise<boolean>;

/**
 * Whether bonus operations are available for a card (section 1 of the
 * interface document, main flow step 3: the module "checks whether bonus
 * operations are available"). `A` is its answer's type: a hook answering with a promise makes
 * the valid results promises too.
 */
export type BonusHook<A extends BonusAnswer = BonusAnswer> = (cardNumber: string) => A;

const verifierSchema = initParametersSchema
  .extend({
    ...schemeFields,
    bonusAvailable: z
      .custom<BonusHook>((v) => typeof v === 'function', {
        error: 'must be a function (cardNumber) => boolean | Promise<boolean>',
      })
      .optional(),
    window: int(0, 10).default(1),
    partnerId: z
      .string({ error: 'must be 1 to 128 printable ASCII characters' })
      .regex(PRINTABLE, { error: 'must be 1 to 128 printable ASCII characters' })
      .max(128, { error: 'must be 1 to 128 printable ASCII characters' })
      .optional(),
    replay: z.union([z.literal(false), storeSchema]).optional(),
    lockout: z
      .union([
        z.literal(false),
        z
          .object({
            maxFailures: int(1, 1000).default(10),
            coolDownSeconds: int(1, 86_400).default(300),
          })
          .strict(),
      ])
      .default({ maxFailures: 10, coolDownSeconds: 300 }),
    backend: z.enum(['wasm', 'native', 'auto'], { error: 'must be wasm, native or auto' }).default('auto'),
    /**
     * How `getToken` computes (the document leaves it "not shown"): `{ scheme }` (default `kit`, or
     * `hmac-sha256-hex` / `hmac-sha256-base64` over the body bytes with the key's bytes), or `{ sign }`, a
     * function `(bodyText, keyHex) => string` for any other computation.
     */
    token: z
      .union(
        [
          z.object({ scheme: tokenSchemeSchema }).strict(),
          z
            .object({
              sign: z.custom<SignFunction>((v) => typeof v === 'function', {
                error: 'must be a function (bodyText, keyHex) => string',
              }),
            })
            .strict(),
        ],
        { error: 'must be { scheme } or { sign }' },
      )
      .default({ scheme: 'kit' }),
    clock: z
      .custom<() => number>((v) => typeof v === 'function', {
        error: 'must be a function returning ms since the epoch',
      })
      .default(() => Date.now),
  })
  .strict();

/**
 * What `createVerifier` and `init` accept (the document's spellings, or
 * `algorithm`/`delimiter`). `S` is the kind of `replay` store and `A` what
 * `bonusAvailable` answers; they decide whether `barcodeVerify` answers at once
 * or with a promise (see {@link VerifyResult}). The defaults are the synchronous
 * kinds, so a config typed `VerifierConfig` (no store, or a `MemoryStore`)
 * verifies synchronously; a shared store is `VerifierConfig<RedisStore>`, and
 * `VerifierConfig<VerificationStore | false, BonusAnswer>` takes every kind.
 *
 * @example
 * const local: VerifierConfig = { ...params, replay: new MemoryStore() };     // barcodeVerify: BarcodeVerification
 * const shared: VerifierConfig<RedisStore> = { ...params, replay: redisStore }; // Promise<BarcodeVerification>
 */
export type VerifierConfig<
  S extends VerificationStore | false = SyncStore | false,
  A extends BonusAnswer = boolean,
> = Omit<z.input<typeof verifierSchema>, 'algorythm' | 'delimeter' | 'replay' | 'bonusAvailable'> & {
  /**
   * Where replay marks and failure counters live, or `false` to accept a password more than once. `false` is
   * one of the kinds `S` ranges over rather than a `| false` beside it: a literal `false` inferred into `S | false`
   * would widen `S` to every kind of store, and the result type with it.
   */
  replay?: S | undefined;
  /** Are bonus operations available for the card; its answer is the valid results' `bonusAvailable`. */
  bonusAvailable?: BonusHook<A> | undefined;
} & ({ algorythm: Algorythm; algorithm?: never } | { algorithm: Algorythm; algorythm?: never }) &
  ({ delimeter: string; delimiter?: never } | { delimiter: string; delimeter?: never });

/** A validated configuration, defaults applied. */
export type ResolvedConfig = z.output<typeof verifierSchema>;

/**
 * Validates a verifier configuration, names every bad field, and accepts the
 * correct spellings `algorithm`/`delimiter` as aliases of the document's own.
 */
export function resolveConfig(input: unknown): ResolvedConfig {
  if (typeof input !== 'object' || input === null) throw new ConfigError(['config: must be an object']);
  const { value, issues: aliasIssues } = applyAliases(input as Record<string, unknown>);
  const parsed = verifierSchema.safeParse(value);
  const issues = [...aliasIssues, ...(parsed.success ? [] : validationErrors(parsed.error, 'config'))];
  if (issues.length > 0 || !parsed.success) throw new ConfigError(issues);
  const config = parsed.data;
  if (config.prefix.includes(config.delimeter)) throw new ConfigError(['prefix: must not contain the delimiter']);
  return config;
}

/**
 * Maps the correct spellings `algorithm`/`delimiter` onto the document's
 * `algorythm`/`delimeter`; `issues` names conflicting pairs (prefixed by `path`).
 */
export function applyAliases(
  input: Record<string, unknown>,
  path = '',
): { value: Record<string, unknown>; issues: string[] } {
  const value: Record<string, unknown> = { ...input };
  const issues: string[] = [];
  for (const [alias, canonical] of [
    ['algorithm', 'algorythm'],
    ['delimiter', 'delimeter'],
  ] as const) {
    if (!(alias in value)) continue;
    if (canonical in value && value[canonical] !== value[alias])
      issues.push(`${path}${alias}: conflicts with ${canonical}`);
    value[canonical] ??= value[alias];
    delete value[alias];
  }
  return { value, issues };
}
