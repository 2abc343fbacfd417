import { createHash, timingSafeEqual } from 'node:crypto';
import { textProblem } from '../contracts/text.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Login and password of an `Authorization: Basic` header (RFC 7617). */
export interface BasicCredentials {
  login: string;
  password: string;
}

/**
 * Reads `Authorization: Basic base64(login:password)`; undefined when absent or
 * malformed, or when either part breaks the text rule (a control character, NUL
 * above all, or bytes that are not UTF-8): such credentials can match no
 * account, so they are refused before any lookup.
 */
export function parseBasicAuth(header: string | undefined | null): BasicCredentials | undefined {
  if (!header || header.length > 4096) return undefined;
  const match = /^Basic ([A-Za-z0-9+/]+={0,2})$/i.exec(header.trim());
  if (!match) return undefined;
  const bytes = Buffer.from(match[1]!, 'base64');
  let decoded: string;
  try {
    decoded = utf8.decode(bytes);
  } catch {
    return undefined;
  }
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  const login = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  if (textProblem(login) !== undefined || textProblem(password) !== undefined) return undefined;
  return { login, password };
}

/** The header value for `login:password`. */
export function basicAuthHeader(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`, 'utf8').toString('base64')}`;
}

/**
 * Compares two secrets in constant time whatever their lengths: both are
 * hashed first, so neither the content nor the length leaks through timing.
 */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a, 'utf8').digest();
  const hb = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(ha, hb);
}
