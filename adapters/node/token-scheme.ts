import { createHmac } from 'node:crypto';
import type { TokenScheme } from '../../src/contracts/pay/token.js';
import { TokenSignerError } from '../../src/errors.js';

/** A token computation other than the kit's: the body text and the partner key (hex) in, the token out. */
export type SignFunction = (bodyText: string, keyHex: string) => string;

/**
 * The HMAC-SHA256 schemes: over the body's exact UTF-8 bytes, keyed with the partner key's bytes. The kit's
 * own scheme is the core's (`getToken`), so it is not here.
 */
export function hmacToken(scheme: Exclude<TokenScheme, 'kit'>, key: Buffer, bodyText: string): string {
  const mac = createHmac('sha256', key).update(bodyText, 'utf8').digest();
  return mac.toString(scheme === 'hmac-sha256-hex' ? 'hex' : 'base64');
}

/**
 * What a signer answered, checked: a non-empty string without control characters (it goes in a header), else a
 * {@link TokenSignerError} naming `signer`. Never echoes the value: it may be a secret.
 */
export function checkedToken(signer: string, value: unknown): string {
  if (typeof value !== 'string') {
    throw new TokenSignerError(signer, `the token signer (${signer}) answered ${describe(value)}, not a string`);
  }
  // A header value: visible ASCII and spaces only, so no token can split or smuggle a header.
  if (!/^[\x20-\x7e]{1,8192}$/.test(value)) {
    throw new TokenSignerError(
      signer,
      `the token signer (${signer}) answered a string that is not 1 to 8192 printable ASCII characters`,
    );
  }
  return value;
}

/** The signer threw: the error's class only, its message may carry what it was given. */
export function signerThrew(signer: string, cause: unknown): TokenSignerError {
  const kind = cause instanceof Error ? cause.name : typeof cause;
  return new TokenSignerError(signer, `the token signer (${signer}) threw ${kind}`, { cause });
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function') return 'a promise';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
