import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Baseline (a): the kit's verification algorithm written directly with
 * node:crypto, with no shortcuts the kit does not also take: split, derive
 * the card key, HMAC(counter || session) for T, T-1, T+1, constant-time compare.
 */
export function createNodeCryptoVerifier(options: {
  key: string;
  algorythm: 'HMACSHA256' | 'HMACSHA1';
  passLength: number;
  interval: number;
  prefix: string;
  delimeter: string;
  clock: () => number;
}) {
  const partnerKey = Buffer.from(options.key, 'hex');
  const alg = options.algorythm === 'HMACSHA1' ? 'sha1' : 'sha256';
  const counterBytes = Buffer.alloc(8);
  const modulo = 10 ** options.passLength;
  return (fullBarcode: string): boolean => {
    const parts = fullBarcode.split(options.delimeter);
    if (parts[0] !== options.prefix || (parts.length !== 3 && parts.length !== 4)) return false;
    const cardNumber = parts[1]!;
    const session = parts.length === 4 ? parts[2]! : '';
    const password = Buffer.from(parts[parts.length - 1]!);
    if (password.length !== options.passLength) return false;
    const cardKey = createHmac(alg, partnerKey).update(`card:${cardNumber}`).digest();
    const current = Math.floor(Math.floor(options.clock() / 1000) / options.interval);
    for (const delta of [0, -1, 1]) {
      counterBytes.writeBigUInt64BE(BigInt(current + delta));
      const tag = createHmac(alg, cardKey).update(counterBytes).update(session).digest();
      const offset = tag[tag.length - 1]! & 0x0f;
      const value = (tag.readUInt32BE(offset) & 0x7fffffff) % modulo;
      if (timingSafeEqual(Buffer.from(String(value).padStart(options.passLength, '0')), password)) return true;
    }
    return false;
  };
}
