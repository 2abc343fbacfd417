import { isIPv6 } from 'node:net';

/**
 * The unit a per-address failure budget counts: an IPv4 address as is (an
 * IPv4-mapped IPv6 address as its IPv4 form), an IPv6 address by its /64,
 * because one subscriber usually holds a whole /64 and could otherwise take
 * a fresh address for every guess. `unknown` when the address is not known.
 */
export function addressKey(address: string | undefined): string {
  if (address === undefined || address === '') return 'unknown';
  const zone = address.indexOf('%');
  const bare = zone === -1 ? address : address.slice(0, zone);
  if (!bare.includes(':')) return bare;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return mapped[1]!;
  if (!isIPv6(bare)) return bare;
  const [head = '', tail] = bare.split('::');
  const front = head === '' ? [] : head.split(':');
  const back = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined
      ? front
      : [...front, ...new Array<string>(Math.max(0, 8 - front.length - back.length)).fill('0'), ...back];
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
