import { z } from 'zod';
import { ConfigError } from '../errors.js';
import { DEFAULT_RETRY_POLICY, realSleep, type RetryPolicy, type Sleep } from './backoff.js';
import type { PayClientEvent } from './events.js';

/** Something that signs a body: the kit's verifier (`createVerifier(...)`) fits. */
export interface TokenSigner {
  getToken(requestData: string): string;
}

/**
 * Options of {@link createPayClient}. Give `verifier` (signs in process) or
 * `token` (e.g. asks the cash desk server's `POST /v1/token`), not both.
 */
export interface PayClientOptions {
  /** The Pay API root, e.g. `https://pay.example` or the sandbox's URL. */
  baseUrl: string;
  /** Signs each attempt's exact body text; a new token every attempt (the service refuses a reused jti). */
  verifier?: TokenSigner;
  /** Alternative to `verifier`: the token for the exact body text. */
  token?: (bodyText: string) => string | Promise<string>;
  /** Per attempt, from sending to the answer's body read. Default 10 000 ms. */
  timeoutMs?: number;
  /** Automatic retries of safe calls; `false` = none. Default `{ max: 3, baseMs: 100, maxMs: 2000 }`. */
  retries?: Partial<RetryPolicy> | false;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
  /** Request/response/failure events with timings (no bodies, no tokens). */
  onEvent?: (event: PayClientEvent) => void;
  /** How to wait between retries. Default: real time. */
  sleep?: Sleep;
  /** Jitter source in [0, 1). Default `Math.random`. */
  random?: () => number;
}

/** Validated client options. */
export interface ResolvedPayClientOptions {
  baseUrl: string;
  sign: (bodyText: string) => string | Promise<string>;
  timeoutMs: number;
  retries: RetryPolicy;
  fetch: typeof fetch;
  onEvent: ((event: PayClientEvent) => void) | undefined;
  sleep: Sleep;
  random: () => number;
}

const ms = (max: number) => z.number({ error: `must be an integer number of ms from 1 to ${max}` }).int().min(1).max(max);

const schema = z.object({
  baseUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  timeoutMs: ms(600_000).default(10_000),
  retries: z.union([
    z.literal(false),
    z.object({
      max: z.number().int().min(0).max(10, { error: 'must be an integer from 0 to 10' }).default(DEFAULT_RETRY_POLICY.max),
      baseMs: ms(60_000).default(DEFAULT_RETRY_POLICY.baseMs),
      maxMs: ms(600_000).default(DEFAULT_RETRY_POLICY.maxMs),
    }).strict(),
  ]).default({ ...DEFAULT_RETRY_POLICY }),
}).strip();

const fn = (value: unknown) => value === undefined || typeof value === 'function';

/** Validates the options once, at the boundary; every bad field is named. */
export function resolvePayClientOptions(options: PayClientOptions): ResolvedPayClientOptions {
  const issues: string[] = [];
  const parsed = schema.safeParse(options);
  if (!parsed.success) issues.push(...parsed.error.issues.map((i) => `${i.path.join('.') || 'options'}: ${i.message}`));
  const hasVerifier = options.verifier !== undefined;
  if (hasVerifier === (options.token !== undefined)) issues.push('verifier: give verifier or token, exactly one');
  if (hasVerifier && typeof options.verifier?.getToken !== 'function') issues.push('verifier: must have getToken(requestData)');
  if (!fn(options.token)) issues.push('token: must be a function');
  for (const name of ['fetch', 'onEvent', 'sleep', 'random'] as const) if (!fn(options[name])) issues.push(`${name}: must be a function`);
  if (!parsed.success || issues.length > 0) throw new ConfigError(issues, 'Pay client options');
  const { retries } = parsed.data;
  const verifier = options.verifier;
  return {
    baseUrl: parsed.data.baseUrl.replace(/\/+$/, ''),
    sign: verifier ? (text) => verifier.getToken(text) : options.token!,
    timeoutMs: parsed.data.timeoutMs,
    retries: retries === false ? { ...DEFAULT_RETRY_POLICY, max: 0 } : retries,
    fetch: options.fetch ?? globalThis.fetch,
    onEvent: options.onEvent,
    sleep: options.sleep ?? realSleep,
    random: options.random ?? Math.random,
  };
}
