import { z } from 'zod';
import {
  type PayDialect,
  type PayDialectConfig,
  payDialectSchema,
  resolvePayDialect,
} from '../contracts/pay/dialect.js';
import { TOKEN_HEADER } from '../contracts/pay/errors.js';
import { ConfigError } from '../errors.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../net/backoff.js';
import { realSleep, type Sleep } from '../time/sleep.js';
import type { PayClientEvent, PayOperation } from './events.js';
import { validationErrors } from '../contracts/validation-errors.js';

/**
 * Something that signs a body: the kit's verifier (`createVerifier(...)`, its config's `token` choosing the scheme)
 * fits, and so does `loadTokenSigner(...)`'s answer (a scheme or a signer module of the merchant's).
 */
export interface TokenSigner {
  getToken(requestData: string): string | Promise<string>;
  /** How it computes, named in errors and by `pay check`: `kit`, `hmac-sha256-hex`, `module ./sign.mjs`... */
  readonly tokenScheme?: string;
}

/** What a `sign` function is told besides the body text. */
export interface SignContext {
  operation: PayOperation;
  /** The path called, e.g. `/checkout`. */
  path: string;
}

/** Computes the token for the exact body text (`requestData`) of one attempt. */
export type Sign = (requestData: string, context: SignContext) => string | Promise<string>;

/**
 * Which Pay API the client speaks.
 *
 * - `'kit'` (default): the interface document plus the kit's extensions, as
 *   the sandbox and openapi/pay.json have them: /cancel and /receipt,
 *   /status by requestId + cardSession (the lost-/checkout probe), refundId
 *   (a safely retried /refund), providerId on /checkout, offers on the task.
 * - `'document'`: the interface document read literally. Bodies hold only
 *   fields the document names; /status only by transactionId; /refund
 *   without refundId or amount and never retried; /cancel and /receipt only
 *   when `paths` gives them (the document shows no path); a lost /checkout
 *   answer is recovered by the same /checkout again (section 7).
 */
export type PayProfile = 'document' | 'kit';

/** The default `tokenHeader`: the kit's (the README's Pay API tokens). */
export const DEFAULT_TOKEN_HEADER: string = TOKEN_HEADER;

/**
 * Options of {@link createPayClient}. Give `verifier` (signs in process) or
 * `sign` (any other token: e.g. asks the cash desk server's `POST /v1/token`,
 * or a service whose token differs), not both.
 */
export interface PayClientOptions {
  /** The Pay API root, e.g. `https://pay.example` or the sandbox's URL. */
  baseUrl: string;
  /** Signs each attempt's exact body text; a new token every attempt (the service refuses a reused jti). */
  verifier?: TokenSigner;
  /** Instead of `verifier`: the token for the exact body text of each attempt (sync or async). */
  sign?: Sign;
  /** @deprecated The former name of `sign`. */
  token?: (bodyText: string) => string | Promise<string>;
  /** The header the token goes in. Default `X-Wallet-Token` (the document leaves the name to the service). */
  tokenHeader?: string;
  /** Which API: `'kit'` (default) or `'document'`, see {@link PayProfile}. */
  profile?: PayProfile;
  /** Paths that differ from the defaults; under `'document'` the only way to have `cancel` and `receipt`. */
  paths?: Partial<Record<PayOperation, string>>;
  /**
   * The service's own words, merged over the kit's: `statuses` (word to class) and `errorCodes` (refusal to the
   * service's codes), e.g. `{ statuses: { PAID: 'successful' }, errorCodes: { cardSessionInvalid: ['SESSION_EXPIRED'] }
   * }`.
   */
  dialect?: PayDialectConfig;
  /** Per attempt, from sending to the answer's body read. Default 10 000 ms. */
  timeoutMs?: number;
  /** Automatic retries of safe calls; `false` = none. Default `{ max: 3, baseMs: 100, maxMs: 2000 }`. */
  retries?: Partial<RetryPolicy> | false;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
  /** Request/response/failure events with timings, and `responseNotUnderstood` (no bodies, no tokens). */
  onEvent?: (event: PayClientEvent) => void;
  /** How to wait between retries. Default: real time. */
  sleep?: Sleep;
  /** Jitter source in [0, 1). Default `Math.random`. */
  random?: () => number;
}

/** Validated client options. */
export interface ResolvedPayClientOptions {
  baseUrl: string;
  sign: Sign;
  /** Names the signer in a `TOKEN_SIGNER_FAILED`: the verifier's `tokenScheme`, or `sign`. */
  signer: string;
  tokenHeader: string;
  profile: PayProfile;
  paths: Partial<Record<PayOperation, string>>;
  dialect: PayDialect;
  timeoutMs: number;
  retries: RetryPolicy;
  fetch: typeof fetch;
  onEvent: ((event: PayClientEvent) => void) | undefined;
  sleep: Sleep;
  random: () => number;
}

const ms = (max: number) =>
  z
    .number({ error: `must be an integer number of ms from 1 to ${max}` })
    .int()
    .min(1)
    .max(max);

// Headers the client sets itself: a token there would clash with them.
const RESERVED = new Set(['content-type', 'content-length', 'host', 'x-request-id', 'transfer-encoding', 'connection']);
const OPERATIONS = ['availability', 'availabilityTask', 'checkout', 'status', 'cancel', 'refund', 'receipt'] as const;
const path = z.string().regex(/^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]{0,255}$/, { error: 'must be a path starting with /' });

/** `tokenHeader`'s rule (no default), for configurations that pass it on (the cash desk server's `pay.tokenHeader`). */
export const tokenHeaderSchema = z
  .string()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/, { error: 'must be an HTTP header name' })
  .refine((h) => !RESERVED.has(h.toLowerCase()), { error: 'must not be a header the client sets itself' });
/** `profile`'s rule (no default). */
export const payProfileSchema = z.enum(['document', 'kit'], { error: 'must be document or kit' });
/** `paths`' rule (no default): operation names to paths. */
export const payPathsSchema = z.partialRecord(
  z.enum(OPERATIONS, { error: `must be one of ${OPERATIONS.join(', ')}` }),
  path,
);

const schema = z
  .object({
    baseUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
    tokenHeader: tokenHeaderSchema.default(DEFAULT_TOKEN_HEADER),
    profile: payProfileSchema.default('kit'),
    paths: payPathsSchema.default({}),
    dialect: payDialectSchema.optional(),
    timeoutMs: ms(600_000).default(10_000),
    retries: z
      .union([
        z.literal(false),
        z
          .object({
            max: z
              .number()
              .int()
              .min(0)
              .max(10, { error: 'must be an integer from 0 to 10' })
              .default(DEFAULT_RETRY_POLICY.max),
            baseMs: ms(60_000).default(DEFAULT_RETRY_POLICY.baseMs),
            maxMs: ms(600_000).default(DEFAULT_RETRY_POLICY.maxMs),
          })
          .strict(),
      ])
      .default({ ...DEFAULT_RETRY_POLICY }),
  })
  .strip();

const fn = (value: unknown) => value === undefined || typeof value === 'function';

/** Validates the options once, at the boundary; every bad field is named. */
export function resolvePayClientOptions(options: PayClientOptions): ResolvedPayClientOptions {
  const issues: string[] = [];
  const parsed = schema.safeParse(options);
  if (!parsed.success) issues.push(...validationErrors(parsed.error, 'options'));
  const hasVerifier = options.verifier !== undefined;
  const given = [options.verifier, options.sign, options.token].filter((o) => o !== undefined).length;
  if (given !== 1) issues.push('verifier: give verifier or sign, exactly one');
  if (hasVerifier && typeof options.verifier?.getToken !== 'function')
    issues.push('verifier: must have getToken(requestData)');
  if (!fn(options.sign)) issues.push('sign: must be a function');
  if (!fn(options.token)) issues.push('token: must be a function');
  for (const name of ['fetch', 'onEvent', 'sleep', 'random'] as const)
    if (!fn(options[name])) issues.push(`${name}: must be a function`);
  if (!parsed.success || issues.length > 0) throw new ConfigError(issues, 'Pay client options');
  const { retries } = parsed.data;
  const { verifier, token } = options;
  return {
    baseUrl: parsed.data.baseUrl.replace(/\/+$/, ''),
    sign: options.sign ?? (verifier ? (text) => verifier.getToken(text) : (text) => token!(text)),
    signer: verifier ? (verifier.tokenScheme ?? 'verifier') : options.sign ? 'sign' : 'token',
    tokenHeader: parsed.data.tokenHeader,
    profile: parsed.data.profile,
    paths: parsed.data.paths,
    dialect: resolvePayDialect(parsed.data.dialect),
    timeoutMs: parsed.data.timeoutMs,
    retries: retries === false ? { ...DEFAULT_RETRY_POLICY, max: 0 } : retries,
    fetch: options.fetch ?? globalThis.fetch,
    onEvent: options.onEvent,
    sleep: options.sleep ?? realSleep,
    random: options.random ?? Math.random,
  };
}
