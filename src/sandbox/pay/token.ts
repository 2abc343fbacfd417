import { createHmac, timingSafeEqual } from 'node:crypto';

/** Why a token was refused; never sent to the caller beyond TOKEN_INVALID, but logged and tested. */
export type TokenRefusal = 'MALFORMED' | 'HEADER' | 'SIGNATURE' | 'STALE' | 'REPLAYED';

/** Options of {@link verifyWalletToken}. */
export interface TokenCheck {
  /** tokenKey = HMAC-SHA256(partnerKey, "token"). */
  tokenKey: Uint8Array;
  /** Seconds since the epoch, now. */
  nowSeconds: number;
  /** Largest |now - iat| accepted. Default 300 (the README's Pay API tokens). */
  maxSkewSeconds?: number;
  /** Records a jti; false when it was seen before (within the skew window). */
  claimJti(jti: string, ttlSeconds: number): boolean | Promise<boolean>;
}

/** The protected header the kit's getToken writes. */
export interface WalletTokenHeader {
  alg: 'HS256';
  b64: false;
  crit: ['b64'];
  iat: number;
  jti: string;
  kid?: string;
}

const B64URL = /^[A-Za-z0-9_-]+$/;
/** What a partner id can be (the sandbox's PartnerId): a `kid` outside it names no partner. */
const KID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * The `kid` of a token's protected header, read before anything else so the
 * partner (and its key) can be found: undefined when the header has none,
 * null when the token is not readable or the kid cannot be a partner id (a NUL
 * or any other character a partner id never has), so such a token is refused
 * without a database lookup.
 */
export function tokenKid(token: string): string | undefined | null {
  if (token.length > 4096) return null;
  const dot = token.indexOf('.');
  const encoded = token.slice(0, dot < 0 ? token.length : dot);
  if (!B64URL.test(encoded)) return null;
  try {
    const header = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as { kid?: unknown } | null;
    if (typeof header !== 'object' || header === null) return null;
    if (header.kid === undefined) return undefined;
    return typeof header.kid === 'string' && KID.test(header.kid) ? header.kid : null;
  } catch {
    return null;
  }
}

/** tokenKey for a partner key given as hex: HMAC-SHA256(partnerKey, "token"). */
export function tokenKeyOf(partnerKeyHex: string): Buffer {
  return createHmac('sha256', Buffer.from(partnerKeyHex, 'hex')).update('token').digest();
}

function parseHeader(encoded: string): WalletTokenHeader | undefined {
  try {
    const header = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Partial<WalletTokenHeader>;
    const ok =
      header.alg === 'HS256' &&
      header.b64 === false &&
      Array.isArray(header.crit) &&
      header.crit.length === 1 &&
      header.crit[0] === 'b64' &&
      Number.isSafeInteger(header.iat) &&
      typeof header.jti === 'string' &&
      /^[A-Za-z0-9_-]{16,64}$/.test(header.jti) &&
      (header.kid === undefined || (typeof header.kid === 'string' && KID.test(header.kid)));
    return ok ? (header as WalletTokenHeader) : undefined;
  } catch {
    return undefined;
  }
}

/** Default largest |now - iat|, in seconds (the README's Pay API tokens). */
const MAX_SKEW_SECONDS = 300;

/**
 * What can be checked of an `X-Wallet-Token` without the body: its shape, its
 * protected header (alg, b64, crit, iat, jti, kid) and its age. Run before the
 * body is read, so a request without a plausible token costs no body buffering.
 */
export function precheckWalletToken(
  token: string | undefined,
  nowSeconds: number,
  maxSkewSeconds = MAX_SKEW_SECONDS,
): { ok: true; header: WalletTokenHeader } | { ok: false; refusal: TokenRefusal } {
  if (typeof token !== 'string' || token.length > 4096) return { ok: false, refusal: 'MALFORMED' };
  const parts = token.split('.');
  if (parts.length !== 3 || parts[1] !== '' || !B64URL.test(parts[0]!) || !B64URL.test(parts[2]!)) {
    return { ok: false, refusal: 'MALFORMED' };
  }
  const header = parseHeader(parts[0]!);
  if (header === undefined) return { ok: false, refusal: 'HEADER' };
  if (Math.abs(nowSeconds - header.iat) > maxSkewSeconds) return { ok: false, refusal: 'STALE' };
  return { ok: true, header };
}

/**
 * Checks an `X-Wallet-Token` against the exact body bytes received: a JWS
 * HS256 with detached unencoded payload (RFC 7515, RFC 7797). Order: shape,
 * header and age ({@link precheckWalletToken}), signature (constant time),
 * then the jti is claimed, so a forged token can never burn a real one's jti.
 */
export async function verifyWalletToken(
  token: string | undefined,
  body: Uint8Array,
  check: TokenCheck,
): Promise<{ ok: true; header: WalletTokenHeader } | { ok: false; refusal: TokenRefusal }> {
  const maxSkew = check.maxSkewSeconds ?? MAX_SKEW_SECONDS;
  const pre = precheckWalletToken(token, check.nowSeconds, maxSkew);
  if (!pre.ok) return pre;
  const { header } = pre;
  const [encodedHeader, , encodedSignature] = (token as string).split('.') as [string, string, string];
  const expected = createHmac('sha256', check.tokenKey).update(`${encodedHeader}.`).update(body).digest();
  const presented = Buffer.from(encodedSignature, 'base64url');
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected))
    return { ok: false, refusal: 'SIGNATURE' };
  // A jti must stay remembered as long as its token could still pass the age check.
  if (!(await check.claimJti(header.jti, maxSkew * 2 + 1))) return { ok: false, refusal: 'REPLAYED' };
  return { ok: true, header };
}
