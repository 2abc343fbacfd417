import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddressOf, TrustedProxies, trustSocket } from '../../../src/net/client-address.js';
import { ConfigError } from '../../../src/errors.js';

const proxies = new TrustedProxies(['127.0.0.1/32', '10.0.0.0/8', 'fd00::/8']);

describe('TrustedProxies', () => {
  it('refuses an entry that is neither an address nor a CIDR, naming it', () => {
    expect(() => new TrustedProxies(['10.0.0.0/33'])).toThrow(ConfigError);
    expect(() => new TrustedProxies(['proxy.example'])).toThrow(/trustedProxies\.0/);
  });

  it('trusts addresses inside its blocks, IPv4, IPv6 and IPv4-mapped alike', () => {
    expect(proxies.trusts('10.2.3.4')).toBe(true);
    expect(proxies.trusts('::ffff:127.0.0.1')).toBe(true);
    expect(proxies.trusts('fd12::1')).toBe(true);
    expect(proxies.trusts('192.0.2.1')).toBe(false);
    expect(proxies.trusts('2001:db8::1')).toBe(false);
  });

  it('takes the rightmost untrusted X-Forwarded-For node when the peer is trusted', () => {
    const headers = { 'x-forwarded-for': '203.0.113.9, 198.51.100.7, 10.0.0.5' };
    expect(proxies.clientAddress('127.0.0.1', headers)).toBe('198.51.100.7');
  });

  it('ignores forwarding headers from a peer it does not trust', () => {
    expect(proxies.clientAddress('192.0.2.1', { 'x-forwarded-for': '198.51.100.7' })).toBe('192.0.2.1');
    expect(proxies.clientAddress('192.0.2.1', { forwarded: 'for=198.51.100.7' })).toBe('192.0.2.1');
  });

  it('prefers Forwarded for= over X-Forwarded-For, with quotes, brackets and ports', () => {
    const headers = {
      forwarded: 'for="[2001:db8::7]:4711";proto=https, for=10.0.0.9',
      'x-forwarded-for': '198.51.100.7',
    };
    expect(proxies.clientAddress('127.0.0.1', headers)).toBe('2001:db8::7');
    expect(proxies.clientAddress('127.0.0.1', { forwarded: 'for="192.0.2.60:8080"' })).toBe('192.0.2.60');
  });

  it('stops at the proxy that wrote a node naming no address', () => {
    expect(proxies.clientAddress('127.0.0.1', { forwarded: 'for=unknown, for=10.0.0.9' })).toBe('10.0.0.9');
    expect(proxies.clientAddress('127.0.0.1', { 'x-forwarded-for': 'garbage' })).toBe('127.0.0.1');
  });

  it('answers the peer when a trusted peer sends no forwarding header', () => {
    expect(proxies.clientAddress('::ffff:127.0.0.1', {})).toBe('127.0.0.1');
  });

  it('answers the leftmost node when every node is a trusted proxy', () => {
    expect(proxies.clientAddress('127.0.0.1', { 'x-forwarded-for': '10.0.0.1, 10.0.0.2' })).toBe('10.0.0.1');
  });

  it('trusts nobody when given no list, whatever the headers say', () => {
    expect(new TrustedProxies().clientAddress('127.0.0.1', { 'x-forwarded-for': '198.51.100.7' })).toBe('127.0.0.1');
  });
});

describe('clientAddressOf', () => {
  const request = (remoteAddress: string, headers: Record<string, string>) =>
    ({ socket: { remoteAddress }, headers }) as unknown as IncomingMessage;

  it('answers the peer for a socket of a server without trusted proxies', () => {
    expect(clientAddressOf(request('::ffff:127.0.0.1', { 'x-forwarded-for': '198.51.100.7' }))).toBe('127.0.0.1');
  });

  it('applies the trusted proxies of the server that took the socket', () => {
    const req = request('127.0.0.1', { 'x-forwarded-for': '198.51.100.7' });
    trustSocket(req.socket, proxies);
    expect(clientAddressOf(req)).toBe('198.51.100.7');
  });
});
