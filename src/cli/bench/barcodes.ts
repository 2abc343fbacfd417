import { randomBytes, randomInt } from 'node:crypto';
import { drawBarcode } from '../../../adapters/node/primitives.js';
import type { ServeConfig } from '../../server/config.js';

/** Where the load's barcodes come from, and what the server should answer to them. */
export interface BarcodeSource {
  /** `valid`: drawn with the server's partner key (each good once); `invalid`: well formed, wrong code. */
  readonly kind: 'valid' | 'invalid';
  /** One sentence for the report: where the barcodes come from. */
  readonly note: string;
  /** A fresh barcode: a card never used before in this run. */
  next(): string;
}

/**
 * Barcodes for the load. With the server's verifier configuration each is
 * valid (drawn now, for a card of its own, so no replay mark or lockout turns
 * it away early); without it, the same layout drawn with a random key: each
 * one costs the server a full verification and is refused (`CODE_MISMATCH`).
 * Cards are random per run, so a second run against the same server meets no
 * marks of the first.
 */
export function barcodeSource(verifier: ServeConfig['verifier'], valid: boolean, note: string): BarcodeSource {
  const key = valid ? verifier.key : randomBytes(verifier.key.length / 2).toString('hex');
  // 16 digits: 9, a run prefix, then the call's number.
  const prefix = `9${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
  const sessionLength = verifier.cardSessionLength;
  let n = 0;
  return {
    kind: valid ? 'valid' : 'invalid',
    note,
    next() {
      const id = n++;
      const cardNumber = `${prefix}${String(id % 1_000_000_000).padStart(9, '0')}`;
      const cardSession = sessionLength > 0 ? String(id).padStart(sessionLength, '0').slice(-sessionLength) : undefined;
      return drawBarcode({ ...verifier, key, cardNumber, ...(cardSession === undefined ? {} : { cardSession }) });
    },
  };
}
