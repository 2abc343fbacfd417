import { pino, type Logger } from 'pino';
import { z } from 'zod';
import { validationErrors } from '../../src/contracts/validation-errors.js';
import { ConfigError } from '../../src/errors.js';
import { BackOffice } from '../../src/cashdesk/back-office/service.js';
import { HealthCheck } from '../http-server/health.js';

/** Default largest request body: 1 MiB, ample for a Pay API body and far beyond any barcode. */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

/** Largest `bodyLimitBytes` accepted: bodies are held in memory whole, so the cap bounds memory per request. */
export const MAX_BODY_LIMIT_BYTES = 16 * 1024 * 1024;

/** Options of {@link createHttpApp}. */
export interface HttpAdapterOptions {
  /**
   * Largest request body in bytes, 1 to 16 MiB; larger bodies get 413. Default 1 MiB ({@link
   * DEFAULT_BODY_LIMIT_BYTES}).
   */
  bodyLimitBytes?: number;
  /** Where request failures are logged (500s at `error`, 503s at `warn`). Default: a silent pino logger. */
  logger?: Logger;
  /**
   * The dependencies `GET /healthz` probes (the shared Redis store); 503 names the failing ones. Default: none, always
   * 200.
   */
  health?: HealthCheck;
  /**
   * A comment line on each payment event stream this often, in ms, so a proxy that cuts quiet streams (nginx's
   * `proxy_read_timeout`, 60 s by default) keeps it. Default 15 000.
   */
  eventHeartbeatMs?: number;
  /** The back office behind `/v1/back-office/...` and `/v1/audit`. Default: none, those routes answer 401. */
  backOffice?: BackOffice;
}

/** {@link HttpAdapterOptions} with every default applied. */
export interface ResolvedHttpAdapterOptions {
  bodyLimitBytes: number;
  eventHeartbeatMs: number;
  logger: Logger;
  health: HealthCheck;
  backOffice: BackOffice | undefined;
}

function isLogger(value: unknown): value is Logger {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return ['error', 'warn', 'info', 'debug', 'child'].every((method) => typeof candidate[method] === 'function');
}

const limitMessage = `must be an integer from 1 to ${MAX_BODY_LIMIT_BYTES}`;

const optionsSchema = z
  .object({
    bodyLimitBytes: z
      .number({ error: limitMessage })
      .int({ error: limitMessage })
      .min(1, { error: limitMessage })
      .max(MAX_BODY_LIMIT_BYTES, { error: limitMessage })
      .default(DEFAULT_BODY_LIMIT_BYTES),
    logger: z.custom<Logger>(isLogger, { error: 'must be a pino Logger' }).optional(),
    health: z.instanceof(HealthCheck, { error: 'must be a HealthCheck' }).optional(),
    eventHeartbeatMs: z.number().int().min(100).max(3_600_000).default(15_000),
    backOffice: z.instanceof(BackOffice, { error: 'must be a BackOffice' }).optional(),
  })
  .strict();

/**
 * Validates the adapter's options once, at start-up, naming every bad field
 * (values are not echoed).
 *
 * @throws ConfigError (`CONFIG_INVALID`) listing `<field>: <message>` issues.
 */
export function resolveHttpAdapterOptions(options: HttpAdapterOptions = {}): ResolvedHttpAdapterOptions {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) throw new ConfigError(validationErrors(parsed.error), 'HTTP adapter options');
  return {
    bodyLimitBytes: parsed.data.bodyLimitBytes,
    eventHeartbeatMs: parsed.data.eventHeartbeatMs,
    // Silent by default: an embedding application decides where its logs go.
    logger: parsed.data.logger ?? pino({ level: 'silent' }),
    health: parsed.data.health ?? new HealthCheck({}),
    backOffice: parsed.data.backOffice,
  };
}
