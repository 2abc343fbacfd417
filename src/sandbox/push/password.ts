import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// RFC 7914 / OWASP interactive parameters: N=2^14, r=8, p=1 (16 MiB, tens of ms).
const PARAMS = { N: 16_384, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { ...options, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/**
 * A scrypt hash of a password, self-describing:
 * `scrypt$N$r$p$<salt base64>$<key base64>`.
 *
 * @example
 * const stored = await hashPassword('initial-password-123');
 * await verifyPassword('initial-password-123', stored); // true
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Checks a password against {@link hashPassword}'s output, comparing in constant time; false for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = Buffer.from(parts[4]!, 'base64');
  const expected = Buffer.from(parts[5]!, 'base64');
  if (!Number.isInteger(N) || expected.length !== KEY_LENGTH) return false;
  const key = await derive(password, salt, { N, r, p });
  return timingSafeEqual(key, expected);
}

const ZERO_SALT = Buffer.alloc(16).toString('base64');
const ZERO_KEY = Buffer.alloc(KEY_LENGTH).toString('base64');
/** A hash no password matches, so an unknown login costs as much time as a known one. */
export const DUMMY_HASH = `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${ZERO_SALT}$${ZERO_KEY}`;
