import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { errorEnvelope } from '../../src/contracts/errors.js';
import { addressKey } from '../../src/guard/address.js';

/** Options of {@link gateConnections}. */
export interface ConnectionGateOptions {
  /** Open connections at most (upgraded WebSockets included); a new one past it is answered 503. */
  maxConnections: number;
  /**
   * Open connections of one peer address (an IPv6 /64) at most, so one client cannot hold them all. Default a
   * quarter of `maxConnections`. Loopback peers and `exempt` ones (trusted proxies) are not held to it.
   */
  maxConnectionsPerAddress?: number;
  /** Peers the per-address cap does not apply to: the trusted proxies, whose connections carry many clients. */
  exempt?: (address: string) => boolean;
  /**
   * A TLS server: a refused socket is closed without an answer (plain text means nothing to a TLS client), and a
   * socket served again goes to the handlers of `secureConnection`.
   */
  secure?: boolean;
  /** The process's open-file limit (soft). Default: read from `/proc/self/limits`; none where that is absent. */
  fdLimit?: number;
  /** Descriptors kept free under `fdLimit`: a connection given one of them is answered 503. Default: see below. */
  fdHeadroom?: number;
  /** `Retry-After` of a refusal, in seconds. Default 1. */
  retryAfterSeconds?: number;
}

/** What a gated server reports. */
export interface ConnectionGate {
  /** Connections let through and not yet closed. */
  readonly open: number;
  /** Connections refused so far, by why. */
  readonly refused: { connections: number; descriptors: number };
  /**
   * Hands a socket the gate let through already back to the server's own connection handling, uncounted: an
   * upgrade request served as plain HTTP after all (upgrade-as-http.ts).
   */
  serveAgain(socket: Socket): void;
}

/** How long a refused client has to send its request (answered then) and read the answer, each. */
const REFUSAL_MS = 1_000;
/** Refused sockets kept open for their request at once; past it, answered at once and closed once flushed. */
const MAX_LINGERING = 64;

/**
 * Puts a gate before an HTTP server's connection handling, so that a client
 * the server cannot take gets a clean `503 Service Unavailable` with
 * `Retry-After`, in the error envelope, instead of a closed or reset
 * socket: at the connection cap, and near the open-file limit. A WebSocket
 * upgrade is answered the same, before any upgrade.
 *
 * The file-descriptor case cannot wait for EMFILE: libuv, on EMFILE, accepts
 * and closes every pending connection unanswered (its own spare descriptor
 * trick) before Node hears of it. So the gate refuses earlier: Linux gives a
 * new socket the lowest free descriptor, so one numbered `fdLimit - fdHeadroom`
 * or above means fewer than `fdHeadroom` are left; that socket is answered
 * 503 and closed. The top descriptors are then only ever held by refusals
 * (and by whatever else the process opens), so accept itself keeps working.
 * The default headroom is 1/32 of the limit, from 8 to 64.
 *
 * A refused socket is answered once its request arrives (or after a second
 * without one), its further input read and dropped, and closed once the
 * client closes (or after another second): closing with unread input is
 * what makes a TCP reset.
 *
 * Call once, on a server not yet listening; it replaces Node's own
 * `maxConnections`, which closes sockets unanswered.
 */
export function gateConnections(server: Server, options: ConnectionGateOptions): ConnectionGate {
  const perAddress = new PerAddressCount(
    options.maxConnectionsPerAddress ?? Math.max(1, Math.floor(options.maxConnections / 4)),
    options.exempt ?? (() => false),
  );
  const fdLimit = options.fdLimit ?? softFdLimit();
  const headroom = options.fdHeadroom ?? (fdLimit === undefined ? 0 : Math.min(64, Math.max(8, fdLimit >> 5)));
  const firstRefusedFd = fdLimit === undefined ? Infinity : fdLimit - headroom;
  const answer = refusalAnswer(options.retryAfterSeconds ?? 1);
  const state = { open: 0, lingering: 0, refused: { connections: 0, descriptors: 0 } };
  const handlers = server.listeners('connection') as Array<(socket: Socket) => void>;
  server.removeAllListeners('connection');
  server.maxConnections = Infinity;
  server.on('connection', (socket: Socket) => {
    const fd = (socket as Socket & { _handle?: { fd?: number } })._handle?.fd ?? -1;
    const full = state.open >= options.maxConnections || !perAddress.admit(socket.remoteAddress);
    const why = fd >= firstRefusedFd ? 'descriptors' : full ? 'connections' : undefined;
    if (why !== undefined) {
      state.refused[why]++;
      if (options.secure) socket.destroy();
      else refuse(socket, answer, state);
      return;
    }
    state.open++;
    perAddress.opened(socket.remoteAddress);
    socket.once('close', () => {
      state.open--;
      perAddress.closed(socket.remoteAddress);
    });
    for (const handler of handlers) handler.call(server, socket);
  });
  return {
    get open() {
      return state.open;
    },
    get refused() {
      return { ...state.refused };
    },
    serveAgain(socket) {
      // With TLS, the socket of an upgrade is the TLS one already: it goes where a finished handshake goes.
      const again = options.secure ? (server.listeners('secureConnection') as typeof handlers) : handlers;
      for (const handler of again) handler.call(server, socket);
    },
  };
}

/** Open connections per peer address (an IPv6 /64), for the per-address cap. */
class PerAddressCount {
  readonly #open = new Map<string, number>();

  constructor(
    readonly max: number,
    readonly exempt: (address: string) => boolean,
  ) {}

  /** Whether one more connection from `address` is allowed. */
  admit(address: string | undefined): boolean {
    const key = this.#key(address);
    return key === undefined || (this.#open.get(key) ?? 0) < this.max;
  }

  opened(address: string | undefined): void {
    const key = this.#key(address);
    if (key !== undefined) this.#open.set(key, (this.#open.get(key) ?? 0) + 1);
  }

  closed(address: string | undefined): void {
    const key = this.#key(address);
    if (key === undefined) return;
    const left = (this.#open.get(key) ?? 1) - 1;
    if (left <= 0) this.#open.delete(key);
    else this.#open.set(key, left);
  }

  /** The counted key, or undefined for a peer not held to the cap (loopback, exempt, unknown). */
  #key(address: string | undefined): string | undefined {
    if (address === undefined || isLoopback(address) || this.exempt(address)) return undefined;
    return addressKey(address);
  }
}

/** 127.0.0.0/8 and ::1 (also IPv4-mapped): processes of this host, such as tills beside the server. */
function isLoopback(address: string): boolean {
  return address === '::1' || /^(?:::ffff:)?127\./i.test(address);
}

/** The 503 answer: a fresh request id each time. */
function refusalAnswer(retryAfterSeconds: number): () => string {
  return () => {
    const requestId = randomUUID();
    const message = 'The server is at its connection limit; retry';
    const body = JSON.stringify(errorEnvelope('SERVICE_UNAVAILABLE', [message], requestId));
    // Header names in lower case, as the kit's other answers write them (reply.ts).
    return (
      `HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\nretry-after: ${retryAfterSeconds}\r\n` +
      'content-type: application/json\r\n' +
      `content-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\n\r\n${body}`
    );
  };
}

function refuse(socket: Socket, answer: () => string, state: { lingering: number }): void {
  socket.on('error', () => socket.destroy());
  let answered = false;
  const reply = () => {
    if (answered) return;
    answered = true;
    clearTimeout(waiting);
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    socket.end(answer());
    // Closed by the client once it has read the answer ('end' below), or here if it never does.
    setTimeout(() => socket.destroy(), REFUSAL_MS).unref();
  };
  state.lingering++;
  socket.once('close', () => {
    state.lingering--;
  });
  // Input is read and dropped until the client closes: a socket closed with unread input is reset.
  socket.on('data', reply);
  socket.on('end', () => {
    if (answered) {
      socket.destroy();
      return;
    }
    reply();
    socket.once('finish', () => socket.destroy());
  });
  const waiting = setTimeout(reply, state.lingering > MAX_LINGERING ? 0 : REFUSAL_MS);
  waiting.unref();
}

/**
 * Keeps a listening server alive through failures to accept: EMFILE and ENFILE are `error` events of the server,
 * which without a listener end the process. One warning per run of failures. Call once it listens (a failure
 * to listen is the caller's).
 */
export function survivingAcceptErrors(server: Server, logger: Logger | undefined): void {
  let failing = false;
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.syscall !== 'accept') {
      logger?.error({ err: error }, 'HTTP server error');
      return;
    }
    if (failing) return;
    failing = true;
    logger?.warn({ code: error.code }, 'cannot accept connections (out of file descriptors): pending ones were closed');
    // Told again at the next failure after a connection has got through.
    server.once('connection', () => {
      failing = false;
    });
  });
}

/** The soft open-file limit from `/proc/self/limits` (Linux), or undefined. */
export function softFdLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return line === null ? undefined : Number(line[1]);
  } catch {
    return undefined;
  }
}
