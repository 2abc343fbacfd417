import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

/** Headers that only ask for the protocol switch: dropped when the request is served as HTTP/1.1. */
const SWITCH_HEADERS = new Set(['upgrade', 'http2-settings']);

/**
 * The request head again, as HTTP/1.1 without its upgrade: `Upgrade` and
 * `HTTP2-Settings` left out, and `upgrade` and `http2-settings` taken out of
 * `Connection`. Every other header goes back byte for byte, in its order.
 */
export function headWithoutUpgrade(req: IncomingMessage): string {
  const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (SWITCH_HEADERS.has(lower)) continue;
    let value = raw[i + 1]!;
    if (lower === 'connection') {
      value = value
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== '' && !SWITCH_HEADERS.has(t.toLowerCase()))
        .join(', ');
      if (value === '') continue;
    }
    lines.push(`${name}: ${value}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/**
 * Serves an upgrade request the server will not upgrade as the ordinary
 * HTTP/1.1 request it also is (RFC 9110 7.8: a server may ignore `Upgrade`).
 * Java's HttpClient and `curl --http2` offer `Upgrade: h2c` on every http://
 * request; once a server listens for `'upgrade'`, Node hands every such
 * request there, parser detached. The head is put back on the socket without
 * the upgrade, ahead of the body bytes already read, and the socket is given
 * to `serve` (the server's own connection handling), which parses it as a
 * fresh connection: routes, limits, keep-alive and metrics as for any request.
 */
export function serveUpgradeAsHttp(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  serve: (socket: Duplex) => void,
): void {
  const again = Buffer.from(headWithoutUpgrade(req), 'latin1');
  socket.unshift(head.length === 0 ? again : Buffer.concat([again, head]));
  serve(socket);
}

/** True when `req` asks for a WebSocket (`Upgrade: websocket`, any case, possibly among other protocols). */
export function wantsWebSocket(req: IncomingMessage): boolean {
  const upgrade = req.headers.upgrade;
  return !!upgrade?.split(',').some((p) => p.trim().toLowerCase() === 'websocket');
}
