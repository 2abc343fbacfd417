import * as OTPAuth from 'otpauth';
import { createVerifier, deriveCardKey, generateBarcode } from '../src/entries/index.js';
import { createNodeCryptoVerifier } from './baselines/node-crypto-verifier.js';
import type { BenchGroup } from './harness.js';

/** The verifier layout every in-process group measures. */
export const CONFIG = {
  algorythm: 'HMACSHA256',
  passLength: 8,
  prefix: 'CM',
  interval: 30,
  cardSessionLength: 8,
  delimeter: ';',
  key: '5f1e0c3a9b7d2468ace013579bdf2468ace013579bdf2468ace013579bdf2468',
  // The baselines (node:crypto, otpauth) reimplement card-bound: per-card key derivation is the cost measured.
  scheme: 'card-bound',
} as const;
export const CARDS = 10_000;
// A fixed instant mid-step: every barcode matches the present step, as a fresh scan does.
export const AT = Date.UTC(2026, 10, 22, 12, 0, 15);

/** CARDS distinct card numbers. */
export function benchCards(): string[] {
  return Array.from({ length: CARDS }, (_, i) => String(4_000_000_000_000_000 + i * 7919));
}

/** A card-bound barcode for each card, drawn at AT. */
export function benchBarcodes(cards = benchCards()): string[] {
  return cards.map((cardNumber) =>
    generateBarcode({
      ...CONFIG,
      cardNumber,
      cardKey: deriveCardKey(CONFIG.key, cardNumber, CONFIG.algorythm),
      cardSession: `S${String(cardNumber).slice(-7)}`,
      at: AT,
    }),
  );
}

/** barcodeVerify of valid card-bound barcodes against baselines (a) node:crypto and (b) otpauth. */
export function verifyGroup(): BenchGroup {
  const cards = benchCards();
  const barcodes = benchBarcodes(cards);
  const clock = () => AT;
  // Replay off in the ratio rows: neither baseline keeps replay marks, and a
  // benchmark repeats its inputs. Lockout stays on (its store lookup is paid).
  const kit = createVerifier({ ...CONFIG, backend: 'wasm', clock, replay: false });
  const bare = createVerifier({ ...CONFIG, backend: 'wasm', clock, replay: false, lockout: false });
  const nodeCrypto = createNodeCryptoVerifier({ ...CONFIG, clock });
  const secrets = cards.map((c) => OTPAuth.Secret.fromHex(deriveCardKey(CONFIG.key, c, CONFIG.algorythm)));
  const plainCodes = secrets.map((secret) =>
    new OTPAuth.TOTP({ secret, algorithm: 'SHA256', digits: 8, period: 30 }).generate({ timestamp: AT }),
  );

  let i = 0;
  const check = (ok: boolean) => {
    if (!ok) throw new Error('benchmark input did not verify');
  };
  return {
    title: 'barcodeVerify, valid card-bound barcodes, window 1, HMACSHA256, 8 digits, 10,000 cards',
    cases: [
      [
        'kit barcodeVerify (wasm, lockout on)',
        () => {
          check(kit.barcodeVerify(barcodes[i++ % CARDS]!).totpCodeValid);
        },
      ],
      [
        'kit barcodeVerify (wasm, no store)',
        () => {
          check(bare.barcodeVerify(barcodes[i++ % CARDS]!).totpCodeValid);
        },
      ],
      [
        '(a) same algorithm on node:crypto',
        () => {
          check(nodeCrypto(barcodes[i++ % CARDS]!));
        },
      ],
      [
        '(b) otpauth TOTP.validate, plain TOTP',
        () => {
          const n = i++ % CARDS;
          check(
            OTPAuth.TOTP.validate({
              token: plainCodes[n]!,
              secret: secrets[n]!,
              algorithm: 'SHA256',
              digits: 8,
              period: 30,
              timestamp: AT,
              window: 1,
            }) === 0,
          );
        },
      ],
    ],
    floors: [
      { label: 'kit barcodeVerify rate', subject: 'kit barcodeVerify (wasm, lockout on)', perSecond: 1_000_000 },
    ],
    ratios: [
      {
        label: 'kit vs (a) node:crypto',
        subject: 'kit barcodeVerify (wasm, lockout on)',
        baseline: '(a) same algorithm on node:crypto',
        target: 2,
      },
      {
        label: 'kit vs (b) otpauth validate',
        subject: 'kit barcodeVerify (wasm, lockout on)',
        baseline: '(b) otpauth TOTP.validate, plain TOTP',
        target: 3.5,
      },
    ],
    notes: [
      'A card-bound verification costs six SHA-256 compressions (card key: 2, its HMAC pads: 2, the code: 2);',
      'otpauth validates a plain TOTP with a key it is handed, so it does the last two only.',
    ],
  };
}
