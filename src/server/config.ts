import { z } from 'zod';
import { applyAliases, initParametersSchema, schemeFields } from '../../adapters/node/config.js';
import { DEFAULT_SERVER_LIMITS, serverLimitsShape } from '../../adapters/http-server/server-limits.js';
import { tlsFilesSchema } from '../../adapters/http-server/tls.js';
import { trustedProxiesSchema } from '../net/client-address.js';
import { bonusSection } from '../cashdesk/bonus.js';
import { ConfigError } from '../errors.js';
import { payDialectSchema } from '../contracts/pay/dialect.js';
import { DEFAULT_PAY_TOKEN, payTokenSchema } from '../contracts/pay/token.js';
import { DEFAULT_TOKEN_HEADER, payPathsSchema, payProfileSchema, tokenHeaderSchema } from '../pay/options.js';
import { validationErrors } from '../contracts/validation-errors.js';
import { reconcileSection } from './config-reconcile.js';
import { backOfficeSection, sharedKeyIssues, storeField } from './config-back-office.js';
import { ENVIRONMENT, envValue, setPath } from './config-environment.js';
import { placeholderIssues } from './config-placeholders.js';

const TILL_ID = /^[A-Za-z0-9._-]{1,64}$/;

const verifierSection = initParametersSchema
  .extend({
    ...schemeFields,
    window: z.number().int().min(0).max(10, { error: 'must be an integer from 0 to 10' }).default(1),
    partnerId: z
      .string()
      .regex(/^[\x21-\x7e]{1,128}$/, { error: 'must be 1 to 128 printable ASCII characters' })
      .optional(),
    backend: z.enum(['wasm', 'native', 'auto'], { error: 'must be wasm, native or auto' }).default('auto'),
    /** Refuse a password seen before (in memory, or in Redis with redisUrl). Turning it off weakens security. */
    replay: z.boolean({ error: 'must be true or false' }).default(true),
    lockout: z
      .union([
        z.literal(false),
        z
          .object({
            maxFailures: z.number().int().min(1).max(1000).default(10),
            coolDownSeconds: z.number().int().min(1).max(86_400).default(300),
          })
          .strict(),
      ])
      .default({ maxFailures: 10, coolDownSeconds: 300 }),
  })
  .strict();

/** Where `serve --demo` finds the Pay API: the sandbox's default URL. */
export const DEMO_PAY_URL = 'http://127.0.0.1:8090';

const ms = (max: number) => {
  const error = `must be an integer number of ms from 1 to ${max}`;
  return z.number({ error }).int({ error }).min(1, { error }).max(max, { error });
};

/** Payments for tills: the wallet's Pay API and how its status comes back. */
const paySection = z
  .object({
    url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
    /** `whsec_...`: mounts POST /webhooks/pay; without it the status is polled. */
    webhookSecret: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/, { error: 'must be whsec_ followed by base64 of 24 to 64 bytes' })
      .optional(),
    /** Per Pay API attempt. Default 10 000. */
    timeoutMs: ms(600_000).default(10_000),
    /** /status polling while a payment waits: default 2000 ms, or 10 000 ms with a webhook secret (the safety net). */
    pollIntervalMs: ms(3_600_000).optional(),
    /** How often an instance adopts the payments whose lease expired (their instance died). Default 2000. */
    adoptIntervalMs: ms(3_600_000).default(2_000),
    /**
     * How long an instance's lease on a payment holds without renewal (renewed every third of it); a payment whose
     * instance died is adopted within this plus `adoptIntervalMs`. Default 5000.
     */
    leaseMs: ms(600_000)
      .refine((v) => v >= 300, { error: 'must be at least 300 ms' })
      .default(5_000),
    /** The Pay client's profile: `kit` (default) or `document` (the interface document read literally). */
    profile: payProfileSchema.default('kit'),
    /** The header the token goes in. Default X-Wallet-Token. */
    tokenHeader: tokenHeaderSchema.default(DEFAULT_TOKEN_HEADER),
    /**
     * How the token is computed: `{ "scheme": "kit" }` (default), `"hmac-sha256-hex"` or `"hmac-sha256-base64"`
     * (over the body bytes, keyed with verifier.key's bytes), or `{ "module": "<path>" }`, an ES module (a relative
     * path from the working directory) exporting `sign(bodyText, keyHex)`. The tills' `token.get` signs the same way.
     */
    token: payTokenSchema.default(DEFAULT_PAY_TOKEN),
    /** Paths that differ from the defaults, by operation (`{ "cancel": "/payments/cancel" }`). */
    paths: payPathsSchema.default({}),
    /**
     * The service's own words, merged over the kit's (which stay understood): `statuses` (word to transit,
     * successful or unsuccessful) and `errorCodes` (cardSessionInvalid, tokenInvalid, invalidState,
     * idempotencyConflict, amountMismatch, notFound, badRequest: each a list of the service's codes) and `fields` (the
     * answers' field names the document does not show, the kit's to the service's). Default: none.
     */
    dialect: payDialectSchema.default({ statuses: {}, errorCodes: {}, fields: {} }),
    /**
     * How long a payment may show only status words the dialect does not know before it moves to phase `unknown`
     * (reason UNRECOGNIZED_STATUS; still polled). Default 600 000 (10 minutes).
     */
    unknownStatusTimeoutMs: ms(86_400_000).default(600_000),
    /**
     * Where the payment sessions, their database and the Pay API client run: `worker` (default), a thread of
     * their own, so payment work never delays a till's barcode verification; `main`, the server's own thread.
     */
    thread: z.enum(['worker', 'main'], { error: 'must be worker or main' }).default('worker'),
    /**
     * Linux: how many niceness steps below the main thread the payments thread runs (0 to 19; default 10), so
     * that on a busy core a till's verification goes first. 0 on a host shared with other busy processes that
     * would otherwise take the payments' CPU time.
     */
    threadNiceness: z
      .number({ error: 'must be an integer from 0 to 19' })
      .int({ error: 'must be an integer from 0 to 19' })
      .min(0, { error: 'must be an integer from 0 to 19' })
      .max(19, { error: 'must be an integer from 0 to 19' })
      .default(10),
    reconcile: reconcileSection,
  })
  .strict();

/** The server's database (payment sessions): PGlite in memory by default. */
const databaseSection = z
  .object({
    url: z
      .string()
      .regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// URL' })
      .optional(),
    dataDir: z.string().min(1).optional(),
    schema: z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, { error: 'must be 1 to 63 of [a-z0-9_], not starting with a digit' })
      .optional(),
  })
  .strict()
  .refine((d) => !(d.url !== undefined && d.dataDir !== undefined), { error: 'give url or dataDir, not both' });

const credentials = z.object({ login: z.string().min(1).max(128), password: z.string().min(1).max(512) }).strict();

/** The `serve` command's configuration (file, environment and flags), validated as one. */
export const serveConfigSchema = z
  .object({
    verifier: verifierSection,
    tills: z
      .array(
        z
          .object({
            id: z.string().regex(TILL_ID, { error: 'must be 1 to 64 of [A-Za-z0-9._-]' }),
            key: z
              .string({ error: 'must be a string of 16 to 512 characters' })
              .min(16, { error: 'must be a string of 16 to 512 characters' })
              .max(512, { error: 'must be a string of 16 to 512 characters' }),
            // A till that reads the bridge's answers as if each were to its previous call gets them in the order it
            // called.
            orderedAnswers: z.boolean({ error: 'must be true or false' }).optional(),
            // The till's store (shop): the back office's reports group by store, then till.
            store: storeField,
          })
          .strict(),
        { error: 'must be a list of { id, key }' },
      )
      .min(1, { error: 'must list at least one till' })
      .refine((tills) => new Set(tills.map((t) => t.id)).size === tills.length, { error: 'ids must be unique' })
      .refine((tills) => new Set(tills.map((t) => t.key)).size === tills.length, { error: 'keys must be unique' }),
    server: z
      .object({
        host: z.string().min(1).default('127.0.0.1'),
        port: z
          .number({ error: 'must be an integer from 0 to 65535' })
          .int({ error: 'must be an integer from 0 to 65535' })
          .min(0, { error: 'must be an integer from 0 to 65535' })
          .max(65_535, { error: 'must be an integer from 0 to 65535' })
          .default(8080),
        allowedOrigins: z.array(z.url({ error: 'must be an origin like https://till.example' })).default([]),
        bodyLimitBytes: z
          .number()
          .int()
          .min(1024)
          .max(16 * 1024 * 1024)
          .default(1024 * 1024),
        maxPayloadBytes: z
          .number()
          .int()
          .min(1024)
          .max(16 * 1024 * 1024)
          .default(1024 * 1024),
        drainSeconds: z.number().int().min(0).max(300).default(10),
        // A comment on each payment event stream this often, under proxies' read timeouts (nginx: 60 s).
        eventHeartbeatMs: z.number().int().min(100).max(3_600_000).optional(),
        // Timeouts and connection cap of the HTTP server (adapters/http-server/server-limits.ts); unset: its defaults.
        ...serverLimitsShape,
        // WebSocket caps (adapters/ws/options.ts); unset: the bridge's defaults.
        maxWsConnections: z.number().int().min(1).max(1_000_000).optional(),
        maxWsConnectionsPerTill: z.number().int().min(1).max(1_000_000).optional(),
        maxWsBufferedBytesTotal: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
      })
      .strict()
      .default({
        host: '127.0.0.1',
        port: 8080,
        allowedOrigins: [],
        bodyLimitBytes: 1_048_576,
        maxPayloadBytes: 1_048_576,
        drainSeconds: 10,
      }),
    // HTTPS and WSS on the server's port (PEM files; SIGHUP reads them again). Default: plain HTTP.
    tls: tlsFilesSchema.optional(),
    // Proxies whose Forwarded / X-Forwarded-For name the client (addresses or CIDRs). Default none.
    trustedProxies: trustedProxiesSchema.default([]),
    bonus: bonusSection.optional(),
    redisUrl: z
      .string()
      .regex(/^rediss?:\/\//, { error: 'must be a redis:// or rediss:// URL' })
      .optional(),
    pay: paySection.optional(),
    // Keys of the merchant's back-office systems (Bearer on HTTP only), each with its scopes.
    backOffice: backOfficeSection,
    database: databaseSection.default({}),
    // The audit log's retention: rows older than `retentionDays` are deleted (daily); default none, every row kept.
    audit: z
      .object({
        retentionDays: z.number({ error: 'must be an integer from 1 to 36500' }).int().min(1).max(36_500).optional(),
      })
      .strict()
      .default({}),
    // Redis or the Pay API not answering at start: a warn line each, and the server starts (false, the default);
    // true: the start fails naming it (--require-dependencies). The database is always required.
    requireDependencies: z.boolean({ error: 'must be true or false' }).default(false),
    // One file (and demoConfig) may also hold the Push account and the Loyalty server's credentials: serve does not
    // use them.
    push: credentials.optional(),
    loyalty: credentials.optional(),
  })
  .strict();

/** A validated `serve` configuration. */
export type ServeConfig = z.output<typeof serveConfigSchema>;
/** What a config file may hold. */
export type ServeConfigInput = z.input<typeof serveConfigSchema>;

/**
 * Merges a config file's content, the environment and command-line overrides
 * (later wins), validates once and names every bad field; throws ConfigError.
 */
export function resolveServeConfig(
  file: unknown,
  env: Record<string, string | undefined>,
  overrides: {
    host?: string;
    port?: number;
    dataDir?: string;
    requireDependencies?: boolean;
    tlsCert?: string;
    tlsKey?: string;
  } = {},
): ServeConfig {
  const merged: Record<string, unknown> =
    typeof file === 'object' && file !== null ? (structuredClone(file) as Record<string, unknown>) : {};
  if (file !== undefined && (typeof file !== 'object' || file === null || Array.isArray(file))) {
    throw new ConfigError(['config: the file must hold a JSON object'], 'server configuration');
  }
  for (const [name, { path, kind }] of Object.entries(ENVIRONMENT)) {
    const raw = env[name];
    if (raw !== undefined && raw !== '') setPath(merged, path, envValue(raw, kind));
  }
  if (overrides.host !== undefined) setPath(merged, ['server', 'host'], overrides.host);
  if (overrides.port !== undefined) setPath(merged, ['server', 'port'], overrides.port);
  if (overrides.tlsCert !== undefined) setPath(merged, ['tls', 'cert'], overrides.tlsCert);
  if (overrides.tlsKey !== undefined) setPath(merged, ['tls', 'key'], overrides.tlsKey);
  if (overrides.requireDependencies !== undefined) merged.requireDependencies = overrides.requireDependencies;
  if (overrides.dataDir !== undefined) {
    // --data means PGlite in that folder, whatever DATABASE_URL says (as the sandbox command does).
    setPath(merged, ['database', 'dataDir'], overrides.dataDir);
    delete (merged.database as Record<string, unknown>).url;
  }
  const aliasIssues: string[] = [];
  if (typeof merged.verifier === 'object' && merged.verifier !== null) {
    const { value, issues } = applyAliases(merged.verifier as Record<string, unknown>, 'verifier.');
    merged.verifier = value;
    aliasIssues.push(...issues);
  }
  // A value copied from a sample and never filled in is named as such, rather than as a value of the wrong shape.
  const placeholders = placeholderIssues(merged);
  if (placeholders.length > 0) throw new ConfigError(placeholders, 'server configuration');
  const parsed = serveConfigSchema.safeParse(merged);
  const issues = [...aliasIssues, ...(parsed.success ? [] : validationErrors(parsed.error, 'config'))];
  if (issues.length > 0 || !parsed.success) throw new ConfigError(issues, 'server configuration');
  const shared = sharedKeyIssues(parsed.data.tills, parsed.data.backOffice);
  if (shared.length > 0) throw new ConfigError(shared, 'server configuration');
  const { prefix, delimeter } = parsed.data.verifier;
  if (prefix.includes(delimeter))
    throw new ConfigError(['verifier.prefix: must not contain the delimiter'], 'server configuration');
  const {
    headersTimeoutMs = DEFAULT_SERVER_LIMITS.headersTimeoutMs,
    requestTimeoutMs = DEFAULT_SERVER_LIMITS.requestTimeoutMs,
  } = parsed.data.server;
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError(['server.headersTimeoutMs: must not exceed server.requestTimeoutMs'], 'server configuration');
  }
  return parsed.data;
}
