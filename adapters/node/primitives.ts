import { z } from 'zod';
import { ALGORYTHMS, type Algorythm } from '../../src/contracts/barcode.js';
import { ArgumentError } from '../../src/errors.js';
import {
  CARD_NUMBER_RULE,
  CardNumberText,
  CardSessionText,
  isCardNumber,
} from '../../src/contracts/card-identifiers.js';
import { initParametersSchema, schemeFields } from './config.js';
import { AlgId, Core, IO_CAP, KEY_CAP } from '../core/core.js';
import { bytesToHex, hexToBytes, isHex } from './hex.js';
import { configureCore } from './backend.js';
import { validationErrors } from '../../src/contracts/validation-errors.js';

let shared: Core | undefined;
/** One core for the stateless helpers: calls are synchronous, so they never interleave. */
function core(): Core {
  shared ??= new Core();
  return shared;
}

const encoder = new TextEncoder();

function algId(algorythm: unknown, what: string): AlgId {
  if (!ALGORYTHMS.includes(algorythm as Algorythm))
    throw new ArgumentError(['algorythm: must be HMACSHA256 or HMACSHA1'], what);
  return algorythm === 'HMACSHA1' ? AlgId.Sha1 : AlgId.Sha256;
}

function keyBytes(key: string | Uint8Array, what: string): Uint8Array {
  if (key instanceof Uint8Array) {
    if (key.length > KEY_CAP) throw new ArgumentError([`key: must be at most ${KEY_CAP} bytes`], what);
    return key;
  }
  if (typeof key !== 'string' || !isHex(key))
    throw new ArgumentError(['key: must be a hex string or a Uint8Array'], what);
  if (key.length > KEY_CAP * 2) throw new ArgumentError([`key: must be at most ${KEY_CAP} bytes`], what);
  return hexToBytes(key);
}

function digitsOf(digits: unknown, what: string): number {
  if (!Number.isInteger(digits) || (digits as number) < 1 || (digits as number) > 10) {
    throw new ArgumentError(['digits: must be an integer from 1 to 10'], what);
  }
  return digits as number;
}

function splitCounter(counter: number | bigint, what: string): [hi: number, lo: number] {
  const value = typeof counter === 'bigint' ? counter : Number.isSafeInteger(counter) ? BigInt(counter) : -1n;
  if (value < 0n || value > 0xffff_ffff_ffff_ffffn) {
    throw new ArgumentError(['counter: must be an integer from 0 to 2^64-1 (number or bigint)'], what);
  }
  return [Number(value >> 32n), Number(value & 0xffff_ffffn)];
}

/** Moves `bytes` into the core's IO buffer (must fit). */
function loadIo(c: Core, bytes: Uint8Array): number {
  c.io.set(bytes);
  return bytes.length;
}

function code(
  c: Core,
  alg: AlgId,
  key: Uint8Array,
  hi: number,
  lo: number,
  digits: number,
  session: Uint8Array,
): string {
  c.exports.otpKey(alg, c.loadKey(key));
  c.exports.otp(hi, lo, digits, loadIo(c, session));
  return c.out.toString('latin1', 0, digits);
}

/** Options of {@link hotp}. */
export interface HotpOptions {
  /** Default `HMACSHA1`, as in RFC 4226. */
  algorythm?: Algorythm;
  /** Default 6. */
  digits?: number;
}

/**
 * RFC 4226 HOTP, zero-padded; `counter` is a number or a bigint up to 2^64-1.
 *
 * @example
 * hotp('3132333435363738393031323334353637383930', 0) // '755224'
 */
export function hotp(key: string | Uint8Array, counter: number | bigint, options: HotpOptions = {}): string {
  const alg = algId(options.algorythm ?? 'HMACSHA1', 'hotp');
  const [hi, lo] = splitCounter(counter, 'hotp');
  return code(core(), alg, keyBytes(key, 'hotp'), hi, lo, digitsOf(options.digits ?? 6, 'hotp'), new Uint8Array(0));
}

/** Options of {@link totp}. */
export interface TotpOptions extends HotpOptions {
  /** Step in seconds. Default 30. */
  interval?: number;
}

/**
 * RFC 6238 TOTP at `atMs` (ms since the epoch, T0 = 0).
 *
 * @example
 * totp(keyHex, Date.now(), { algorythm: 'HMACSHA256', digits: 8, interval: 30 })
 */
export function totp(key: string | Uint8Array, atMs: number, options: TotpOptions = {}): string {
  const interval = options.interval ?? 30;
  if (!Number.isInteger(interval) || interval < 1)
    throw new ArgumentError(['interval: must be a positive integer'], 'totp');
  if (!Number.isFinite(atMs) || atMs < 0) throw new ArgumentError(['atMs: must be ms since the epoch'], 'totp');
  return hotp(key, Math.floor(Math.floor(atMs / 1000) / interval), options);
}

/**
 * RFC 2104 HMAC with SHA-1 or SHA-256 over `data` (bytes, or a string taken as UTF-8).
 *
 * @example
 * hmac('HMACSHA256', key, 'what do ya want for nothing?')
 */
export function hmac(algorythm: Algorythm, key: string | Uint8Array, data: string | Uint8Array): Uint8Array {
  const c = core();
  const alg = algId(algorythm, 'hmac');
  const bytes = typeof data === 'string' ? encoder.encode(data) : data;
  if (!(bytes instanceof Uint8Array)) throw new ArgumentError(['data: must be a string or a Uint8Array'], 'hmac');
  c.exports.macBegin(alg, c.loadKey(keyBytes(key, 'hmac')));
  for (let offset = 0; offset < bytes.length; offset += IO_CAP) {
    c.exports.macUpdate(loadIo(c, bytes.subarray(offset, offset + IO_CAP)));
  }
  return new Uint8Array(c.out.subarray(0, c.exports.macEnd()));
}

/**
 * The wallet app's per-card key: HMAC_alg(partnerKey, "card:" + cardNumber), as hex.
 *
 * @example
 * const cardKey = deriveCardKey(partnerKeyHex, '4000123412341234', 'HMACSHA256');
 */
export function deriveCardKey(partnerKeyHex: string, cardNumber: string, algorythm: Algorythm): string {
  const what = 'deriveCardKey';
  const issues: string[] = [];
  if (
    typeof partnerKeyHex !== 'string' ||
    !isHex(partnerKeyHex) ||
    partnerKeyHex.length < 32 ||
    partnerKeyHex.length > 2048
  ) {
    issues.push('partnerKeyHex: must be hex of 16 to 1024 bytes');
  }
  if (!isCardNumber(cardNumber)) issues.push(`cardNumber: must be ${CARD_NUMBER_RULE}`);
  if (!ALGORYTHMS.includes(algorythm)) issues.push('algorythm: must be HMACSHA256 or HMACSHA1');
  if (issues.length > 0) throw new ArgumentError(issues, what);
  const c = core();
  configureCore(c, {
    algorythm,
    key: partnerKeyHex,
    passLength: 6,
    prefix: 'CM',
    interval: 30,
    cardSessionLength: 8,
    delimeter: ';',
    window: 1,
    scheme: 'card-bound',
    previousKeys: [],
  });
  return bytesToHex(c.out.subarray(0, c.exports.deriveCardKey(loadIo(c, encoder.encode(cardNumber)))));
}

const hexKey = z
  .string({ error: 'must be hex' })
  .refine(isHex, { error: 'must be hex' })
  .refine((k) => k.length <= KEY_CAP * 2, { error: 'too long' });

const barcodeSchema = initParametersSchema
  .pick({ algorythm: true, passLength: true, prefix: true, interval: true, delimeter: true })
  .extend({
    scheme: schemeFields.scheme,
    cardNumber: CardNumberText,
    key: hexKey.optional(),
    cardKey: hexKey.optional(),
    cardSession: CardSessionText.optional(),
    at: z
      .number({ error: 'must be ms since the epoch' })
      .nonnegative({ error: 'must be ms since the epoch' })
      .optional(),
  })
  .superRefine((o, ctx) => {
    // A delimiter inside a field would split the barcode elsewhere than the caller meant.
    for (const field of ['cardNumber', 'cardSession'] as const) {
      if (o.delimeter !== undefined && o[field]?.includes(o.delimeter))
        ctx.addIssue({ code: 'custom', path: [field], message: 'must not hold the delimiter' });
    }
    if (o.scheme === 'card-bound') {
      if (o.cardKey === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['cardKey'],
          message: 'required for scheme card-bound (the card key from deriveCardKey)',
        });
      return;
    }
    if (o.key === undefined)
      ctx.addIssue({ code: 'custom', path: ['key'], message: 'required for scheme rfc6238 (the partner key)' });
    // Refused rather than ignored: a card key here means the caller expects card-bound barcodes.
    if (o.cardKey !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['cardKey'],
        message: "only for scheme card-bound; say scheme: 'card-bound', or give the partner key as key",
      });
  });

/**
 * What {@link generateBarcode} takes: the layout of the verifier it is for and
 * the key of its scheme: `key` (the partner key) for `rfc6238`, the default, or
 * `cardKey` for `card-bound`. Other fields are ignored, so a verifier config can be spread in.
 */
export type GenerateBarcodeOptions = z.input<typeof barcodeSchema>;

/**
 * The wallet side: draws the barcode text for a card at `at` (ms, default now)
 * in the verifier's scheme.
 *
 * @example
 * generateBarcode({ prefix: 'CM', delimeter: ';', cardNumber, key: partnerKeyHex, cardSession: 'AB12CD34',
 *   algorythm: 'HMACSHA256', passLength: 8, interval: 30 }) // 'CM;4000123412341234;AB12CD34;01234567'
 * generateBarcode({ ...layout, scheme: 'card-bound', cardNumber,
 *   cardKey: deriveCardKey(partnerKeyHex, cardNumber, 'HMACSHA256') })
 */
export function generateBarcode(options: GenerateBarcodeOptions): string {
  const parsed = barcodeSchema.safeParse(options);
  if (!parsed.success) throw new ArgumentError(validationErrors(parsed.error, 'config'), 'generateBarcode');
  const o = parsed.data;
  const at = o.at ?? Date.now();
  const counter = Math.floor(Math.floor(at / 1000) / o.interval);
  const session = o.cardSession ?? '';
  const cardBound = o.scheme === 'card-bound';
  // rfc6238: plain TOTP of the partner key, the session outside the MAC.
  const password = code(
    core(),
    algId(o.algorythm, 'generateBarcode'),
    hexToBytes(cardBound ? o.cardKey! : o.key!),
    Math.floor(counter / 2 ** 32),
    counter >>> 0,
    o.passLength,
    cardBound ? encoder.encode(session) : new Uint8Array(0),
  );
  const d = o.delimeter;
  return `${o.prefix}${d}${o.cardNumber}${d}${session}${d}${password}`;
}

/** What {@link drawBarcode} takes: a verifier's layout, its scheme and its partner key, and the card. */
export type DrawBarcodeOptions = Omit<GenerateBarcodeOptions, 'key' | 'cardKey'> & { key: string };

/**
 * Draws a card's barcode from the partner key in the verifier's scheme, as a
 * wallet service that holds the partner key would (the sandbox, the CLI): for
 * `card-bound` it derives the card key first. The wallet app itself uses
 * {@link generateBarcode} with the key it was given.
 *
 * @example
 * drawBarcode({ ...verifierConfig, cardNumber: '4000123412341234', cardSession: 'AB12CD34' })
 */
export function drawBarcode(options: DrawBarcodeOptions): string {
  if (options.scheme !== 'card-bound') return generateBarcode(options);
  const { key, ...rest } = options;
  return generateBarcode({ ...rest, cardKey: deriveCardKey(key, options.cardNumber, options.algorythm) });
}
