import type { Logger } from 'pino';
import { z } from 'zod';
import { ConfigError } from '../errors.js';
import { validationErrors } from '../contracts/validation-errors.js';

const credentials = z
  .object({
    login: z
      .string()
      .min(1, { error: 'must not be empty' })
      .max(256)
      .refine((s) => !s.includes(':'), { error: 'must not contain ":"' }),
    password: z.string().min(8, { error: 'must be at least 8 characters' }).max(1024),
  })
  .strict();

const schema = z
  .object({
    partnerKey: z
      .string({ error: 'must be the partner key, hex of at least 16 bytes' })
      .regex(/^(?:[0-9a-fA-F]{2}){16,1024}$/, { error: 'must be the partner key, hex of at least 16 bytes' }),
    algorythm: z.enum(['HMACSHA256', 'HMACSHA1'], { error: 'must be HMACSHA256 or HMACSHA1' }).default('HMACSHA256'),
    /**
     * The partner's password scheme: a new card carries its `cardKey` only under `card-bound` (under rfc6238 the app
     * uses the partner key).
     */
    scheme: z.enum(['rfc6238', 'card-bound'], { error: 'must be rfc6238 or card-bound' }).default('rfc6238'),
    credentials: z.union([credentials, z.array(credentials).min(1)], {
      error: 'must be { login, password } or a list of them',
    }),
    bonusRateBasisPoints: z
      .number()
      .int()
      .min(0)
      .max(10_000, { error: 'must be an integer from 0 to 10000' })
      .default(100),
    receiptMaxAgeDays: z.number().int().min(1).max(3660, { error: 'must be an integer from 1 to 3660' }).default(30),
    cardNumberPrefix: z
      .string()
      .regex(/^\d{0,8}$/, { error: 'must be 0 to 8 digits' })
      .default('2990'),
    bodyLimitBytes: z
      .number()
      .int()
      .min(1024)
      .max(16 * 1024 * 1024)
      .default(64 * 1024),
  })
  .strict();

/**
 * Options of the default Loyalty implementation. Defaults: the rfc6238 scheme
 * (no card keys; `scheme: 'card-bound'` issues HMACSHA256 card keys), 1% bonus on purchase receipts (100 basis points
 * of the sum in kopecks, rounded down), receipts up to 30 days old, 16-digit card numbers starting 2990 with a Luhn
 * check digit, 64 KiB bodies.
 */
export type LoyaltyProgramOptions = z.input<typeof schema> & {
  /** Now, in ms. Default `Date.now`. */
  clock?: () => number;
  /** Default: silent. */
  logger?: Logger;
};

/** Validated options. */
export type ResolvedLoyaltyProgramOptions = z.output<typeof schema>;

/** Validates once, at the boundary; every bad field named (values never echoed). */
export function resolveLoyaltyProgramOptions(options: LoyaltyProgramOptions): ResolvedLoyaltyProgramOptions {
  const { clock: _clock, logger: _logger, ...rest } = options;
  const parsed = schema.safeParse(rest);
  if (!parsed.success) {
    throw new ConfigError(validationErrors(parsed.error, 'loyalty'), 'loyalty options');
  }
  return parsed.data;
}
