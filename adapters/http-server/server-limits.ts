import type { Server, ServerOptions } from 'node:http';
import { z } from 'zod';
import { validationErrors } from '../../src/contracts/validation-errors.js';
import { ConfigError } from '../../src/errors.js';

/**
 * Timeouts and the connection cap of every HTTP server of the kit (cash desk,
 * sandbox, Loyalty server, Callback receiver): the numbers live here only.
 */
export interface ServerLimits {
  /**
   * A client must have sent its whole request head (headers) within this, from connecting or from its previous answer;
   * else 408 and close.
   */
  headersTimeoutMs: number;
  /**
   * A client must have sent its whole request (head and body) within this; else 408 and close. Slow-body clients end
   * here.
   */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /**
   * Open connections at most; a socket beyond the cap is answered 503 with `Retry-After` and closed
   * (connection-gate.ts).
   */
  maxConnections: number;
  /** Open connections of one client address at most (connection-gate.ts). Default a quarter of `maxConnections`. */
  maxConnectionsPerAddress?: number;
}

/** The defaults: headers 10 s, request 30 s, keep-alive 5 s, 1024 connections. */
export const DEFAULT_SERVER_LIMITS: Readonly<ServerLimits> = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1024,
});

const ms = (max: number) => {
  const error = `must be an integer from 1 to ${max} (ms)`;
  return z.number({ error }).int({ error }).min(1, { error }).max(max, { error });
};
const connections = z
  .number({ error: 'must be an integer from 1 to 1000000' })
  .int({ error: 'must be an integer from 1 to 1000000' })
  .min(1, { error: 'must be an integer from 1 to 1000000' })
  .max(1_000_000, { error: 'must be an integer from 1 to 1000000' });

/** The fields of {@link ServerLimits}, each optional, as a zod shape (config files embed it). */
export const serverLimitsShape = {
  headersTimeoutMs: ms(3_600_000).optional(),
  requestTimeoutMs: ms(3_600_000).optional(),
  keepAliveTimeoutMs: ms(3_600_000).optional(),
  maxConnections: connections.optional(),
  maxConnectionsPerAddress: connections.optional(),
};

/** Validates partial {@link ServerLimits} (fields not given are not checked against each other). */
export const serverLimitsSchema = z.object(serverLimitsShape).strict();

/**
 * Fills in the defaults and checks the fields against each other: Node refuses
 * a headers timeout longer than the request timeout.
 *
 * @throws ConfigError naming the bad fields.
 */
export function resolveServerLimits(input: Partial<ServerLimits> = {}, context = 'server limits'): ServerLimits {
  const parsed = serverLimitsSchema.safeParse(input);
  if (!parsed.success) throw new ConfigError(validationErrors(parsed.error), context);
  const defined = Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined));
  const limits: ServerLimits = { ...DEFAULT_SERVER_LIMITS, ...defined };
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new ConfigError(['headersTimeoutMs: must not exceed requestTimeoutMs'], context);
  }
  return limits;
}

/**
 * The `http.createServer` options for `limits`. Node enforces the headers and
 * request timeouts on a sweep every `connectionsCheckingInterval` (default
 * 30 s, which would double a 30 s timeout): the sweep here runs at a quarter
 * of the shorter timeout, at most once a second.
 */
export function serverOptionsFor(limits: ServerLimits): ServerOptions {
  const shorter = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(5, Math.min(1_000, Math.floor(shorter / 4))),
  };
}

/**
 * Applies the timeouts again, for a server built by someone else. The
 * connection cap is not Node's `maxConnections` (which closes a socket over it
 * unanswered) but `gateConnections` (connection-gate.ts), which answers 503.
 */
export function applyServerLimits(server: Server, limits: ServerLimits): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
}
