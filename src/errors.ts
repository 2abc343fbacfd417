import type { ErrorCode } from './errors/codes.js';

/**
 * Every error the kit raises carries a stable `code`, one of the table in
 * src/errors/codes.ts (with its HTTP status and JSON-RPC code). Branch on it,
 * never on the message, which is for people and may be reworded.
 */
export type KitErrorCode = ErrorCode;

/**
 * Base class of every error the kit throws: `catch (e) { if (e instanceof KitError) ... e.code }`
 * catches them all. Messages never carry keys, tokens, passwords or bodies.
 */
export class KitError extends Error {
  readonly code: KitErrorCode;

  constructor(code: KitErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/**
 * Bad configuration, found at start-up. `issues` lists every bad field as
 * `<field>: <message>`; values (keys above all) are never echoed.
 *
 * @example
 * try { createVerifier(cfg) } catch (e) { if (e instanceof ConfigError) console.error(e.issues) }
 */
export class ConfigError extends KitError {
  readonly issues: readonly string[];

  constructor(issues: readonly string[], what = 'configuration') {
    super('CONFIG_INVALID', `Invalid ${what}: ${issues.join('; ')}`);
    this.issues = issues;
  }
}

/** A bad argument to a helper such as `hotp` or `generateBarcode`. */
export class ArgumentError extends KitError {
  readonly issues: readonly string[];

  constructor(issues: readonly string[], what: string) {
    super('ARGUMENT_INVALID', `Invalid ${what}: ${issues.join('; ')}`);
    this.issues = issues;
  }
}

/** `getToken` was given something that is not the JSON text of a request body. */
export class RequestDataError extends KitError {
  /** Byte offset (in the UTF-8 text) where it stopped being JSON. */
  readonly offset: number;

  constructor(message: string, offset: number) {
    super('REQUEST_DATA_INVALID', message);
    this.offset = offset;
  }
}

/**
 * The configured token signer (a `pay.token` scheme or module, a `sign` function) threw or answered something
 * other than a non-empty string. `signer` names it; the message says how it failed, never the token or the body.
 */
export class TokenSignerError extends KitError {
  /** The signer: its scheme, `module <path>`, or `sign`. */
  readonly signer: string;

  constructor(signer: string, message: string, options?: ErrorOptions) {
    super('TOKEN_SIGNER_FAILED', message, options);
    this.signer = signer;
  }
}

/** The shared replay/lockout store failed; the barcode was neither accepted nor refused. */
export class StoreError extends KitError {
  constructor(message: string, options?: ErrorOptions) {
    super('STORE_UNAVAILABLE', message, options);
  }
}

/**
 * Seconds a client is told to wait (`Retry-After`, `retryAfterMs`) before
 * retrying an intent refused with `DATABASE_UNAVAILABLE`: about how often the
 * database layer checks whether the database answers again.
 */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * Too many failed authentications: the caller's address, or the credential it
 * presents, is locked out for `retryAfterSeconds` (servers answer 429 with `Retry-After`).
 */
export class LockoutError extends KitError {
  constructor(
    /** What is locked: the caller's `address`, or the `credential` (login, partner) for new addresses. */
    readonly scope: 'address' | 'credential',
    /** Whole seconds until the lockout ends, at least 1. */
    readonly retryAfterSeconds: number,
  ) {
    super('TOO_MANY_REQUESTS', `Too many failed authentications: retry after ${retryAfterSeconds} s`);
  }
}

/**
 * Weighed goods that the document's integer rule cannot state exactly
 * (`MEASURE_INEXACT`: the converted quantity or price would not be a whole
 * number), or only beyond the contract's bounds (`MEASURE_OUT_OF_RANGE`).
 *
 * @example
 * try {
 *   convertMeasure(item, 'GRAM');
 * } catch (e) {
 *   if (e instanceof MeasureError && e.code === 'MEASURE_INEXACT') keepKilograms();
 * }
 */
export class MeasureError extends KitError {
  declare readonly code: 'MEASURE_INEXACT' | 'MEASURE_OUT_OF_RANGE';

  constructor(code: 'MEASURE_INEXACT' | 'MEASURE_OUT_OF_RANGE', message: string) {
    super(code, message);
  }
}
