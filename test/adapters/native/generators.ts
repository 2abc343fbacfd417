// Seeded random inputs for the native-vs-wasm differential tests: layouts,
// barcodes (valid, tampered, malformed, long, unicode) and request bodies.

import type { VerifierConfig } from '../../../adapters/node/config.js';

/** A small, fast, seeded PRNG (mulberry32): the same seed replays the same cases. */
export class Rng {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  string(length: number, alphabet: string | readonly string[]): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)]!;
    return out;
  }
}

export const DIGITS = '0123456789';
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
// Beyond the alphanumerics, characters the interface document allows and
// earlier cores refused; delimiters are drawn from the rest.
export const SESSION_CHARS = `${ALPHANUMERIC}-_= `;
export const CARD_CHARS = `${ALPHANUMERIC}- _.`;
const PRINTABLE = Array.from({ length: 94 }, (_, i) => String.fromCharCode(0x21 + i)).join('');
const DELIMITER_CHARS = PRINTABLE.replace(/[0-9A-Za-z._=-]/g, '');
/** Characters of every UTF-8 length, lone surrogates, controls and the ASCII a barcode is made of. */
export const WILD_CHARS: readonly string[] = [
  ...PRINTABLE,
  ' ',
  '\u0000',
  '\t',
  '\u007f',
  'é',
  'Ж',
  '€',
  '\u2028',
  '😀',
  '🐈‍⬛',
  '\ud800',
  '\udc00',
  '\uffff',
  '\u0080',
];
const ALGS = ['HMACSHA256', 'HMACSHA1'] as const;

/** A random valid verifier layout (prefix never holds the delimiter, as the config requires). */
export function randomLayout(rng: Rng): VerifierConfig & {
  algorythm: 'HMACSHA256' | 'HMACSHA1';
  delimeter: string;
  prefix: string;
  window: number;
  key: string;
  scheme: 'rfc6238' | 'card-bound';
  previousKeys: string[];
} {
  const delimeter = rng.string(rng.pick([1, 1, 1, 2, 3, 4]), DELIMITER_CHARS);
  let prefix = '';
  do {
    prefix = rng.chance(0.5)
      ? rng.string(rng.int(1, 4), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')
      : rng.string(rng.int(1, 16), PRINTABLE);
  } while (prefix.includes(delimeter));
  const keyBytes = rng.chance(0.7)
    ? rng.pick([16, 20, 32, 64])
    : rng.chance(0.5)
      ? rng.int(16, 200)
      : rng.int(65, 1024);
  const previousKeys = Array.from({ length: rng.chance(0.7) ? 0 : rng.int(1, 2) }, () =>
    rng.string(rng.pick([16, 32]) * 2, '0123456789abcdef'),
  );
  return {
    scheme: rng.pick(['rfc6238', 'card-bound'] as const),
    previousKeys,
    algorythm: rng.pick(ALGS),
    passLength: rng.int(1, 10),
    prefix,
    key: rng.string(keyBytes * 2, '0123456789abcdefABCDEF'),
    interval: rng.chance(0.5) ? rng.pick([1, 30, 60, 86_400]) : rng.int(1, 2_000),
    cardSessionLength: rng.chance(0.3) ? 8 : rng.int(1, 64),
    delimeter,
    window: rng.int(0, 10),
    ...(rng.chance(0.3) ? { partnerId: rng.string(rng.int(1, 128), PRINTABLE) } : {}),
  };
}

/** A time in ms: present-day, tiny, fractional, near 2^53, or with counters past 2^32. */
export function randomTime(rng: Rng, interval: number): number {
  switch (rng.int(0, 6)) {
    case 0:
      return 0;
    case 1:
      return rng.int(0, 100_000);
    case 2:
      return rng.int(0, 2 ** 32) * 1000 + rng.next();
    case 3:
      return (2 ** 32 + rng.int(0, 2 ** 20)) * interval * 1000 + rng.int(0, 999); // counter >= 2^32
    case 4:
      return rng.int(2 ** 52, 2 ** 53 - 1);
    default:
      return Date.UTC(2026, 10, 22) + rng.int(-(10 ** 11), 10 ** 11);
  }
}

/** Byte-level mutations that keep a barcode almost valid. */
export function tamper(rng: Rng, code: string, other: string, delimiter: string): string {
  const at = rng.int(0, Math.max(0, code.length - 1));
  switch (rng.int(0, 8)) {
    case 0:
      return code.slice(0, at) + rng.pick(WILD_CHARS) + code.slice(at + 1); // one character changed
    case 1:
      return code.slice(0, at) + rng.pick([...DIGITS, ...delimiter]) + code.slice(at + 1);
    case 2:
      return code.slice(0, at) + code.slice(at + 1); // one deleted
    case 3:
      return code.slice(0, at) + rng.pick(WILD_CHARS) + code.slice(at); // one inserted
    case 4: {
      // parts swapped between two barcodes
      const mine = code.split(delimiter);
      const theirs = other.split(delimiter);
      const part = rng.int(0, Math.min(mine.length, theirs.length) - 1);
      mine[part] = theirs[part]!;
      return mine.join(delimiter);
    }
    case 5: {
      // two parts swapped within one
      const parts = code.split(delimiter);
      const i = rng.int(0, parts.length - 1);
      const j = rng.int(0, parts.length - 1);
      [parts[i], parts[j]] = [parts[j]!, parts[i]!];
      return parts.join(delimiter);
    }
    case 6:
      return rng.chance(0.5) ? code + delimiter + rng.string(rng.int(0, 10), DIGITS) : code.slice(0, at);
    case 7:
      return code.replace(delimiter, delimiter + delimiter);
    default: {
      // the last digit moved by one
      const last = code.at(-1)!;
      return /\d/.test(last) ? code.slice(0, -1) + String((Number(last) + 1) % 10) : code;
    }
  }
}

/** Input no scanner would produce: random text, wrong part counts, over-long and unicode-laden strings. */
export function malformed(
  rng: Rng,
  layout: { prefix: string; delimeter: string; passLength: number; cardSessionLength: number },
): string {
  const d = layout.delimeter;
  const part = () =>
    rng.chance(0.6) ? rng.string(rng.int(0, 70), CARD_CHARS) : rng.string(rng.int(0, 12), WILD_CHARS);
  switch (rng.int(0, 6)) {
    case 0:
      return rng.string(rng.int(0, 40), WILD_CHARS);
    case 1:
      return [layout.prefix, ...Array.from({ length: rng.pick([0, 1, 2, 4, 5, 6]) }, part)].join(d);
    case 2: {
      // about 1024 bytes of UTF-8, multi-byte characters astride the wasm buffer's end
      const head = `${layout.prefix}${d}${rng.string(rng.int(1, 64), CARD_CHARS)}${d}`;
      const filler = rng.pick(['x', '9', d, 'é', '€', '😀', '\ud800']);
      let body = head;
      while (Buffer.byteLength(body) < 1024 - rng.int(0, 8)) body += rng.chance(0.9) ? 'A' : filler;
      return body + rng.string(rng.int(0, 6), ['é', '€', '😀', '\ud800', 'A', d, '1']);
    }
    case 3: {
      const card = rng.string(rng.int(1, 64), CARD_CHARS);
      return `${layout.prefix}${d}${card}${d}${rng.string(rng.int(900, 5_000), SESSION_CHARS)}`;
    }
    case 4:
      return rng.string(rng.int(1000, 3000), WILD_CHARS);
    case 5: {
      const card = rng.string(rng.int(0, 66), CARD_CHARS);
      const session = rng.string(rng.pick([0, layout.cardSessionLength]), SESSION_CHARS);
      const password = rng.string(layout.passLength, rng.chance(0.8) ? DIGITS : WILD_CHARS);
      return `${layout.prefix}${d}${card}${d}${session}${d}${password}`;
    }
    default:
      return `${layout.prefix}${rng.string(rng.int(0, 3), WILD_CHARS)}${d}${rng.string(rng.int(1, 20), WILD_CHARS)}`;
  }
}

/** A random JSON text, optionally with white space between every token. */
export function randomJson(rng: Rng, depth = 0, maxDepth = 4): string {
  const ws = () => (rng.chance(0.1) ? rng.pick([' ', '\n', '\t', '\r', '  ']) : '');
  const kind = depth >= maxDepth ? rng.int(0, 3) : rng.int(0, 5);
  switch (kind) {
    case 0:
      return rng.pick(['true', 'false', 'null']);
    case 1:
      return randomNumber(rng);
    case 2:
    case 3:
      return randomJsonString(rng);
    case 4: {
      const open = ws();
      const items = Array.from({ length: rng.int(0, 5) }, () => ws() + randomJson(rng, depth + 1, maxDepth) + ws());
      return `[${open}${items.join(',')}]`;
    }
    default: {
      const open = ws();
      const member = () =>
        `${ws()}${randomJsonString(rng)}${ws()}:${ws()}${randomJson(rng, depth + 1, maxDepth)}${ws()}`;
      return `{${open}${Array.from({ length: rng.int(0, 5) }, member).join(',')}}`;
    }
  }
}

function randomNumber(rng: Rng): string {
  const int = rng.chance(0.2) ? '0' : String(rng.int(1, 9)) + rng.string(rng.int(0, 12), DIGITS);
  const frac = rng.chance(0.3) ? `.${rng.string(rng.int(1, 6), DIGITS)}` : '';
  const exp = rng.chance(0.2)
    ? `${rng.pick(['e', 'E'])}${rng.pick(['', '+', '-'])}${rng.string(rng.int(1, 3), DIGITS)}`
    : '';
  return `${rng.chance(0.3) ? '-' : ''}${int}${frac}${exp}`;
}

function randomJsonString(rng: Rng): string {
  const escapes = ['\\"', '\\\\', '\\/', '\\b', '\\f', '\\n', '\\r', '\\t', '\\u00e9', '\\uD83D\\uDE00', '\\u0000'];
  let out = '"';
  for (let i = rng.int(0, 40); i > 0; i--) {
    // Now and then a raw control character: the text is no longer JSON, at that byte.
    out += rng.chance(0.1)
      ? rng.pick(escapes)
      : rng.chance(0.005)
        ? rng.pick(['\u0000', '\u0001', '\u001f', '\n'])
        : rng.pick(['a', 'Z', '5', ' ', 'é', 'Ж', '€', '😀', '\ud800', '\u007f', '\u2028', "'", '{', ']', '\u0020']);
  }
  return `${out}"`;
}

/** Text that is JSON but for a random edit (or was never JSON). */
export function corruptJson(rng: Rng, json: string): string {
  const at = rng.int(0, json.length);
  switch (rng.int(0, 5)) {
    case 0:
      return json.slice(0, at); // cut short
    case 1:
      return (
        json.slice(0, at) +
        rng.pick(['x', ',', ']', '}', '"', '\\', '\u0001', ':', '-', '.', 'e', '0', 'tru', 'nul']) +
        json.slice(at)
      );
    case 2:
      return json.slice(0, at) + json.slice(at + 1);
    case 3:
      return `${json}${rng.pick([' x', ',', ' 1', '}', ']', '{}'])}`;
    case 4:
      return rng.string(rng.int(0, 30), WILD_CHARS);
    default:
      return rng.pick([
        '01',
        '-0.',
        '1.e5',
        '+1',
        '.5',
        '"\\x"',
        '"\\u12G4"',
        '[1,]',
        '{"a"}',
        '{"a":1,}',
        'NaN',
        'Infinity',
        '"',
        '[',
        '{',
        ' ',
        '',
      ]);
  }
}
