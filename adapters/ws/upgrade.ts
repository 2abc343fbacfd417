import { type IncomingMessage, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Till } from '../../src/cashdesk/tills.js';
import { presentedKey } from '../../src/cashdesk/tills.js';
import { LockoutError } from '../../src/errors.js';
import { clientAddressOf } from '../../src/net/client-address.js';

/** The subprotocol a till must offer (`Sec-WebSocket-Protocol`); later versions get a new name. */
export const SUBPROTOCOL = 'wallet-pos.v1';

/**
 * Why an upgrade is refused, as HTTP statuses, checked in this order:
 * 503 the bridge is closing; 403 an `Origin` outside the allowlist; 400 the
 * subprotocol `wallet-pos.v1` not offered (400 rather than 426, which asks for
 * a different protocol in `Upgrade` and would mislead: the till speaks
 * WebSocket already, it only lacks the subprotocol); 401 no valid till key.
 * The till key is checked last, so a misconfigured till is told what is wrong
 * before its key is looked at, and the auth-failure metric counts only real
 * key refusals.
 */
export const UPGRADE_REFUSALS = {
  closing: { status: 503, message: 'server shutting down' },
  /** Only for an upgrade whose key is not in `Authorization` (a browser's). */
  origin: { status: 403, message: 'origin not allowed' },
  subprotocol: { status: 400, message: `subprotocol ${SUBPROTOCOL} required` },
  unauthorized: {
    status: 401,
    message: 'a valid till key or ticket is required (Authorization: Bearer <key>, or ?ticket= from POST /v1/tickets)',
  },
  /** Checked before everything but `closing`: over the bridge's `maxConnections`. */
  tooManyConnections: { status: 503, message: 'too many connections', headers: { 'Retry-After': '1' } },
  /** Checked after the till key: that till is over `maxConnectionsPerTill`. */
  tooManyForTill: { status: 429, message: 'too many connections for this till', headers: { 'Retry-After': '1' } },
} as const;

/** A refusal to send instead of upgrading. */
export interface UpgradeRefusal {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

/** What the upgrade check needs from the bridge. */
export interface UpgradeContext {
  /** Normalised allowed origins (`scheme://host[:port]`). */
  allowedOrigins: ReadonlySet<string>;
  /** The till of a key presented from `remoteAddress`; throws `LockoutError` while that address is locked out. */
  authenticate(key: string | undefined, remoteAddress: string | undefined): Till | undefined;
  /** The till a one-use `?ticket=` was issued to; throws `LockoutError` like `authenticate`. */
  redeemTicket(ticket: string, remoteAddress: string | undefined): Till | undefined;
}

/**
 * The till an upgrade request authenticates as, or why it is refused: a Bearer
 * key in `Authorization`, else a one-use `?ticket=` (`POST /v1/tickets`), else
 * the deprecated `?key=`. The `Origin` allowlist applies only to upgrades
 * without a Bearer key: it protects browsers, whose WebSocket API sends the
 * page's Origin and can put a credential only in the URL, never in a header.
 * A client that sets that header is no browser page (many libraries send an
 * Origin anyway, Python's websocket-client among them).
 */
export function checkUpgrade(
  req: IncomingMessage,
  context: UpgradeContext,
): { till: Till } | { refusal: UpgradeRefusal } {
  // Browsers always send Origin on a WebSocket handshake (old drafts, version 8, used Sec-WebSocket-Origin);
  // native tills send neither, and are not exposed to cross-site WebSocket hijacking.
  const authorization = header(req, 'authorization');
  const origin = header(req, 'origin') ?? header(req, 'sec-websocket-origin');
  // Only Bearer: a browser may attach remembered Basic credentials to a handshake by itself, never a Bearer key.
  const keyInHeader = authorization !== undefined && /^Bearer\s/i.test(authorization);
  if (origin !== undefined && !keyInHeader && !context.allowedOrigins.has(normaliseOrigin(origin))) {
    return { refusal: UPGRADE_REFUSALS.origin };
  }
  if (!offeredProtocols(req).includes(SUBPROTOCOL)) return { refusal: UPGRADE_REFUSALS.subprotocol };
  let till: Till | undefined;
  try {
    const ticket = keyInHeader ? undefined : ticketOf(req.url);
    const address = clientAddressOf(req);
    till =
      ticket === undefined
        ? context.authenticate(presentedKey(authorization, req.url), address)
        : context.redeemTicket(ticket, address);
  } catch (error) {
    if (!(error instanceof LockoutError)) throw error;
    return {
      refusal: {
        status: 429,
        message: `too many wrong till keys: retry after ${error.retryAfterSeconds} s`,
        headers: { 'Retry-After': String(error.retryAfterSeconds) },
      },
    };
  }
  if (till === undefined) {
    return {
      refusal: { ...UPGRADE_REFUSALS.unauthorized, headers: { 'WWW-Authenticate': `Bearer realm="${SUBPROTOCOL}"` } },
    };
  }
  return { till };
}

/** The `?ticket=` of an upgrade's URL, if it has one (empty counts: it is refused as a wrong ticket). */
function ticketOf(url: string | undefined): string | undefined {
  return new URL(url ?? '/', 'http://localhost').searchParams.get('ticket') ?? undefined;
}

/** The serialised origin, so `HTTPS://POS.example.com:443` matches `https://pos.example.com`. */
export function normaliseOrigin(origin: string): string {
  try {
    return new URL(origin).origin;
  } catch {
    return origin; // e.g. "null" (sandboxed frames): never in the allowlist, so refused
  }
}

/** Subprotocols in `Sec-WebSocket-Protocol` (comma-separated, possibly over several header lines, which Node joins). */
function offeredProtocols(req: IncomingMessage): string[] {
  return (header(req, 'sec-websocket-protocol') ?? '').split(',').map((p) => p.trim());
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Answers an upgrade request with a plain HTTP/1.1 response and closes the
 * socket, without upgrading. The body is short text: tills log it as is.
 */
export function refuseUpgrade(socket: Duplex, refusal: UpgradeRefusal): void {
  // Node's HTTP server detaches its own listeners from an upgraded socket: a reset while we answer must not crash.
  socket.on('error', () => socket.destroy());
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = `${refusal.message}\n`;
  const headers: Record<string, string | number> = {
    Connection: 'close',
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    ...refusal.headers,
  };
  const head = [
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ''}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.once('finish', () => socket.destroy());
  // A peer that never reads would keep the socket forever; the answer is tiny, a second is plenty.
  setTimeout(() => socket.destroy(), 1_000).unref();
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}
