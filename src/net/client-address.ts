import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';
import { z } from 'zod';
import { validationErrors } from '../contracts/validation-errors.js';
import { ConfigError } from '../errors.js';

/** `10.0.0.0/8`, `2001:db8::/32`, or a single address (`127.0.0.1`, `::1`). */
const ENTRY = /^([^/]+)(?:\/(\d{1,3}))?$/;

/** One `trustedProxies` entry: an IPv4 or IPv6 address, or a CIDR block of either. */
export const trustedProxyEntrySchema = z.string().refine(
  (entry) => {
    const match = ENTRY.exec(entry);
    const family = match === null ? 0 : isIP(match[1]!);
    if (family === 0) return false;
    return match![2] === undefined || Number(match![2]) <= (family === 4 ? 32 : 128);
  },
  { error: 'must be an IPv4 or IPv6 address, or a CIDR block such as 10.0.0.0/8' },
);

/** `trustedProxies` of a server's configuration: the proxies whose forwarding headers are believed. Default none. */
export const trustedProxiesSchema = z.array(trustedProxyEntrySchema, { error: 'must be a list of addresses or CIDRs' });

/** An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) as its IPv4 form; a zone (`%eth0`) dropped; else as given. */
function plainAddress(address: string): string {
  const zone = address.indexOf('%');
  const bare = zone === -1 ? address : address.slice(0, zone);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  return mapped ? mapped[1]! : bare;
}

/**
 * A node of a `Forwarded: for=` or `X-Forwarded-For` list as an address: quotes, brackets and a port removed.
 * Undefined for what names no address (`unknown`, an obfuscated `_name`, garbage).
 */
function forwardedNode(raw: string): string | undefined {
  let node = raw.trim();
  if (node.startsWith('"') && node.endsWith('"') && node.length >= 2) node = node.slice(1, -1);
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(node);
  if (bracketed) node = bracketed[1]!;
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(node)) node = node.slice(0, node.lastIndexOf(':'));
  const plain = plainAddress(node);
  return isIP(plain) === 0 ? undefined : plain;
}

/** The `for=` nodes of a `Forwarded` header (RFC 7239), in order, across its comma-separated elements. */
function forwardedFor(header: string): string[] {
  const nodes: string[] = [];
  for (const element of header.split(',')) {
    for (const pair of element.split(';')) {
      const eq = pair.indexOf('=');
      if (eq !== -1 && pair.slice(0, eq).trim().toLowerCase() === 'for') nodes.push(pair.slice(eq + 1));
    }
  }
  return nodes;
}

/**
 * Which peers may tell a client's address in `Forwarded` or `X-Forwarded-For`:
 * the rule of every server of the kit, so a wrong-key lockout, a log line and
 * an audit record all name the same client.
 */
export class TrustedProxies {
  readonly #list = new BlockList();
  readonly #empty: boolean;

  /** @throws ConfigError naming the bad entries of `entries` (addresses or CIDRs). */
  constructor(entries: readonly string[] = []) {
    const parsed = trustedProxiesSchema.safeParse(entries);
    if (!parsed.success) {
      const issues = validationErrors(parsed.error, 'trustedProxies').map((line) =>
        line.startsWith('trustedProxies') ? line : `trustedProxies.${line}`,
      );
      throw new ConfigError(issues, 'trusted proxies');
    }
    for (const entry of parsed.data) {
      const [, address, prefix] = ENTRY.exec(entry)!;
      const plain = plainAddress(address!);
      const type = isIP(plain) === 4 ? 'ipv4' : 'ipv6';
      if (prefix === undefined) this.#list.addAddress(plain, type);
      else this.#list.addSubnet(plain, Number(prefix), type);
    }
    this.#empty = parsed.data.length === 0;
  }

  /** Whether `address` is one of the trusted proxies. */
  trusts(address: string | undefined): boolean {
    if (this.#empty || address === undefined) return false;
    const plain = plainAddress(address);
    const family = isIP(plain);
    return family !== 0 && this.#list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
  }

  /**
   * The client's address: the peer's, unless the peer is trusted; then the
   * rightmost node of `Forwarded: for=` (or, without that header,
   * `X-Forwarded-For`) that is not itself trusted. A node naming no address
   * stops the walk at the proxy that wrote it. Headers from an untrusted peer
   * change nothing, so a client cannot name its way out of its own lockout.
   */
  clientAddress(peer: string | undefined, headers: IncomingMessage['headers']): string | undefined {
    if (peer === undefined) return undefined;
    let client = plainAddress(peer);
    if (!this.trusts(client)) return client;
    const forwarded = headers.forwarded;
    const xff = headers['x-forwarded-for'];
    const nodes =
      typeof forwarded === 'string' && forwarded !== ''
        ? forwardedFor(forwarded)
        : (Array.isArray(xff) ? xff.join(',') : (xff ?? '')).split(',').filter((n) => n.trim() !== '');
    for (let i = nodes.length - 1; i >= 0; i--) {
      const node = forwardedNode(nodes[i]!);
      if (node === undefined) return client;
      client = node;
      if (!this.trusts(node)) return node;
    }
    return client;
  }
}

/** The trusted proxies of the server that accepted each socket (only servers that have some). */
const socketTrust = new WeakMap<object, TrustedProxies>();
/** Client addresses already worked out, per request or upgrade. */
const clientAddresses = new WeakMap<IncomingMessage, string | undefined>();

/**
 * Tells {@link clientAddressOf} that `socket` was accepted by a server trusting `trusted`; called by the server on
 * each connection (the TLS socket, with TLS).
 */
export function trustSocket(socket: object, trusted: TrustedProxies): void {
  socketTrust.set(socket, trusted);
}

/**
 * The address of the client behind a request or WebSocket upgrade, as its
 * server's `trustedProxies` make it out: what brute-force limits count and
 * logs, traces and audit records name. The peer's address where the server
 * trusts no proxy. Worked out once per request.
 */
export function clientAddressOf(req: IncomingMessage): string | undefined {
  const socket = req.socket;
  const trusted = socket === undefined || socket === null ? undefined : socketTrust.get(socket);
  const peer = socket?.remoteAddress;
  if (trusted === undefined) return peer === undefined ? undefined : plainAddress(peer);
  if (clientAddresses.has(req)) return clientAddresses.get(req);
  const address = trusted.clientAddress(peer, req.headers);
  clientAddresses.set(req, address);
  return address;
}
