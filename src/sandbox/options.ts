import { z } from 'zod';
import { serverLimitsSchema } from '../../adapters/http-server/server-limits.js';
import { ConfigError } from '../errors.js';
import { validationErrors } from '../contracts/validation-errors.js';
import { trustedProxiesSchema } from '../net/client-address.js';

const schema = z
  .object({
    host: z.string().min(1).default('127.0.0.1'),
    port: z
      .number({ error: 'must be an integer from 0 to 65535' })
      .int()
      .min(0)
      .max(65_535, { error: 'must be an integer from 0 to 65535' })
      .default(8090),
    dataDir: z.string().min(1).optional(),
    databaseUrl: z
      .string()
      .regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// URL' })
      .optional(),
    databaseSchema: z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, { error: 'must be 1 to 63 of [a-z0-9_]' })
      .optional(),
    demo: z.boolean().default(false),
    timeScale: z.number().min(1, { error: 'must be at least 1' }).max(1_000_000).default(1),
    bodyLimitBytes: z
      .number()
      .int()
      .min(1024)
      .max(64 * 1024 * 1024)
      .default(8 * 1024 * 1024),
    /** Timeouts and connection cap of the listening server (`startSandbox`); default `DEFAULT_SERVER_LIMITS`. */
    limits: serverLimitsSchema.optional(),
    /**
     * Proxies (addresses or CIDRs) whose `Forwarded`/`X-Forwarded-For` names the client: the address the brute-force
     * limits count and the logs record. Default none: the peer's own address, whatever the headers say.
     */
    trustedProxies: trustedProxiesSchema.optional(),
    /**
     * The words of the Pay API: `kit` (ours, as in openapi/pay.json) or `foreign` (another service's wording on the
     * document's paths and fields; see `src/sandbox/pay/dialect`). A Pay module's own `dialect` option wins.
     */
    dialect: z.enum(['kit', 'foreign'], { error: 'must be kit or foreign' }).default('kit'),
    /** /checkout refuses (409) a card session whose invoice is still open instead of cancelling that invoice. */
    strict: z.boolean().default(false),
  })
  .strict()
  .refine((o) => !(o.dataDir !== undefined && o.databaseUrl !== undefined), {
    error: 'give dataDir or databaseUrl, not both',
  });

/** Options of `startSandbox` and `createSandbox`. */
export type SandboxOptions = z.input<typeof schema> & {
  /** Now, in ms; default `Date.now`. */
  clock?: () => number;
  /** Default: silent. */
  logger?: import('pino').Logger;
  /**
   * Brute-force limit on Push Basic auth and Pay tokens: a limiter, its options
   * (on the sandbox's clock), or `false`. Default: 50 failures per address and
   * 10 per login or partner (for addresses where it has not succeeded) per 5 min, then 429 for 5 min.
   */
  bruteForce?:
    | import('../guard/failure-limiter.js').FailureLimiter
    | import('../guard/failure-limiter.js').FailureLimiterOptions
    | false;
};

/** Validated sandbox options. */
export type ResolvedSandboxOptions = z.output<typeof schema>;

/**
 * Validates the options once, at the boundary. Defaults: 127.0.0.1:8090,
 * PGlite in memory (a folder with `dataDir`, a server with `databaseUrl`),
 * no demo records, real time (`timeScale` 1), 8 MiB bodies (a 10,000-number batch fits).
 */
export function resolveSandboxOptions(options: SandboxOptions): ResolvedSandboxOptions {
  const { clock: _clock, logger: _logger, bruteForce: _bruteForce, ...rest } = options;
  const parsed = schema.safeParse(rest);
  if (!parsed.success) {
    throw new ConfigError(validationErrors(parsed.error, 'sandbox'), 'sandbox options');
  }
  return parsed.data;
}
