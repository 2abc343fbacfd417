import { pino, type Logger } from 'pino';
import { z } from 'zod';
import { validationErrors } from '../../src/contracts/validation-errors.js';
import { ConfigError } from '../../src/errors.js';

/** 1 MiB: a batch of 100 verify calls with long barcodes fits; a memory-exhausting frame does not. */
export const DEFAULT_MAX_PAYLOAD_BYTES = 1024 * 1024;
/** 30 s: long enough for idle tills, short enough to reap dead ones. */
export const DEFAULT_PING_INTERVAL_MS = 30_000;
/** 4 MiB of unsent answers per client before it counts as a slow consumer. */
export const DEFAULT_MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** Open connections per bridge; an upgrade beyond it is refused with 503. */
export const DEFAULT_MAX_CONNECTIONS = 1000;
/**
 * Open connections per till key; an upgrade beyond it is refused with 429 (a till needs one, a few while reconnecting).
 */
export const DEFAULT_MAX_CONNECTIONS_PER_TILL = 16;
/**
 * 64 MiB of unsent answers over all clients: without it, 100 clients that never
 * read could each hold `maxBufferedBytes`. A lagging client that finds the total
 * over this is closed with 1013.
 */
export const DEFAULT_MAX_BUFFERED_BYTES_TOTAL = 64 * 1024 * 1024;
/** Invalid frames tolerated per connection before it is closed (1008). */
export const DEFAULT_MAX_BAD_FRAMES = 10;
/** Calls per batch array. */
export const DEFAULT_MAX_BATCH = 100;
/** How long `close()` (and a slow-consumer close) waits for a peer's close handshake before terminating it. */
export const DEFAULT_CLOSE_GRACE_MS = 5_000;

const int = (min: number, max: number) => {
  const error = `must be an integer from ${min} to ${max}`;
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};

/** Largest delay setInterval/setTimeout honour (2^31 - 1 ms); longer ones fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

const originSchema = z
  .string({ error: 'must be an origin such as https://pos.example.com' })
  .transform((value, ctx) => {
    // Browsers send the serialized origin (lower-case scheme and host, no default port, no path):
    // normalising the allowlist the same way makes the comparison a plain string match.
    try {
      const origin = new URL(value).origin;
      if (origin !== 'null') return origin;
    } catch {
      /* reported below */
    }
    ctx.addIssue({ code: 'custom', message: 'must be an origin such as https://pos.example.com' });
    return z.NEVER;
  });

const loggerSchema = z.custom<Logger>(
  (v) =>
    typeof v === 'object' &&
    v !== null &&
    ['child', 'debug', 'info', 'warn', 'error'].every((m) => typeof (v as Record<string, unknown>)[m] === 'function'),
  { error: 'must be a pino Logger' },
);

const optionsSchema = z
  .object({
    allowedOrigins: z.array(originSchema, { error: 'must be an array of origins' }).default([]),
    maxPayloadBytes: int(1, 256 * 1024 * 1024).default(DEFAULT_MAX_PAYLOAD_BYTES),
    pingIntervalMs: int(10, MAX_TIMER_MS).default(DEFAULT_PING_INTERVAL_MS),
    maxBufferedBytes: int(1, Number.MAX_SAFE_INTEGER).default(DEFAULT_MAX_BUFFERED_BYTES),
    maxBufferedBytesTotal: int(1, Number.MAX_SAFE_INTEGER).default(DEFAULT_MAX_BUFFERED_BYTES_TOTAL),
    maxConnections: int(1, 1_000_000).default(DEFAULT_MAX_CONNECTIONS),
    maxConnectionsPerTill: int(1, 1_000_000).default(DEFAULT_MAX_CONNECTIONS_PER_TILL),
    maxBadFrames: int(1, 1_000_000).default(DEFAULT_MAX_BAD_FRAMES),
    maxBatch: int(1, 10_000).default(DEFAULT_MAX_BATCH),
    closeGraceMs: int(0, MAX_TIMER_MS).default(DEFAULT_CLOSE_GRACE_MS),
    logger: loggerSchema.optional(),
  })
  .strict();

/**
 * Options of `createBridge`. Every field is optional; the defaults are the
 * `DEFAULT_*` constants of this module.
 */
export interface BridgeOptions {
  /**
   * Origins (`https://pos.example.com`) allowed to open a connection. A request
   * that carries an `Origin` header and no Bearer key in `Authorization` (a
   * browser, its key in `?key=`) is refused with 403 unless its origin is
   * listed; requests without one (native tills), or with the key in that header
   * (no browser page can set it), are not affected.
   * Default `[]`: no browser page may connect.
   */
  allowedOrigins?: string[];
  /** Largest frame accepted; a larger one closes the connection with 1009. Default 1 MiB. */
  maxPayloadBytes?: number;
  /** Ping period; a peer that has not answered the previous ping is terminated. Default 30000. */
  pingIntervalMs?: number;
  /**
   * Unsent bytes (`WebSocket#bufferedAmount`) above which a client is closed as a slow consumer (1008). Default 4 MiB.
   */
  maxBufferedBytes?: number;
  /**
   * Unsent bytes over all clients: a client holding unsent answers (more than
   * 64 KiB of them) that finds the total above this is closed (1013), so clients
   * that stop reading cannot take the server's memory. Default 64 MiB.
   */
  maxBufferedBytesTotal?: number;
  /** Open connections; an upgrade beyond this answers HTTP 503 without upgrading. Default 1000. */
  maxConnections?: number;
  /** Open connections per till; an upgrade beyond this answers HTTP 429 without upgrading. Default 16. */
  maxConnectionsPerTill?: number;
  /**
   * Invalid frames (unparsable JSON, invalid requests, binary frames) after which a client is closed (1008). Default
   * 10.
   */
  maxBadFrames?: number;
  /** Calls per batch array; a larger batch is refused whole with -32600. Default 100. */
  maxBatch?: number;
  /** Wait for a peer's close handshake (on `close()` and slow-consumer closes) before terminating it. Default 5000. */
  closeGraceMs?: number;
  /** Where connection events go. Default `pino({ level: 'silent' })`. */
  logger?: Logger;
}

/** Bridge options with every default applied. */
export type ResolvedBridgeOptions = Required<BridgeOptions>;

/**
 * Validates bridge options once, at start-up, naming every bad field in one
 * `ConfigError` (`code: 'CONFIG_INVALID'`), like the verifier's own config.
 */
export function resolveBridgeOptions(input: BridgeOptions | undefined): ResolvedBridgeOptions {
  if (input !== undefined && (typeof input !== 'object' || input === null)) {
    throw new ConfigError(['options: must be an object'], 'bridge options');
  }
  const parsed = optionsSchema.safeParse(input ?? {});
  if (!parsed.success) throw new ConfigError(validationErrors(parsed.error), 'bridge options');
  return { ...parsed.data, logger: parsed.data.logger ?? pino({ level: 'silent' }) };
}
