import { z } from 'zod';
import { singleLine } from './text.js';

// The interface document types the card number as any String and fixes only the
// session's length; the barcode cores read both as bytes between delimiters, so
// the rules are the cores' (assembly/barcode.ts, adapters/native/src/barcode.cc).

/** The longest card number, in UTF-8 bytes (the wasm core's card cache holds 64). */
export const MAX_CARD_NUMBER_BYTES = 64;
/** The card number rule in words, as errors and documents state it. */
export const CARD_NUMBER_RULE = '1 to 64 characters (UTF-8 bytes) without control characters';
/** The card session rule in words (the barcode layout fixes the exact length). */
export const CARD_SESSION_RULE = '1 to 64 printable ASCII characters';

// biome-ignore lint/suspicious/noControlCharactersInRegex: the C0 controls and DEL are what a card number may not hold
const CARD_CHARACTERS = /^[^\u0000-\u001f\u007f]+$/;
const UNPAIRED = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const SESSION = /^[\u0020-\u007e]{1,64}$/;

/** Length of `text` in UTF-8 bytes (`text` holds no unpaired surrogate). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (const character of text) {
    const point = character.codePointAt(0)!;
    bytes += point < 0x80 ? 1 : point < 0x800 ? 2 : point < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/** Whether `value` is a card number the barcode cores accept (the delimiter aside, which the layout knows). */
export function isCardNumber(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    CARD_CHARACTERS.test(value) &&
    !UNPAIRED.test(value) &&
    utf8Length(value) <= MAX_CARD_NUMBER_BYTES
  );
}

/** Whether `value` is a card session of some layout: printable ASCII, space to tilde. */
export function isCardSession(value: unknown): value is string {
  return typeof value === 'string' && SESSION.test(value);
}

const cardNumberMessage = `must be ${CARD_NUMBER_RULE}`;
const cardSessionMessage = `must be ${CARD_SESSION_RULE}`;

/** A card number as the barcode carries it. */
export const CardNumberText = z
  .string({ error: cardNumberMessage })
  // abort: one line per field, however many of the checks it fails.
  .min(1, { error: cardNumberMessage, abort: true })
  .max(MAX_CARD_NUMBER_BYTES, { error: cardNumberMessage, abort: true })
  .regex(CARD_CHARACTERS, { error: cardNumberMessage, abort: true })
  .refine(isCardNumber, { error: cardNumberMessage })
  .meta({
    description:
      `Loyalty card number: ${CARD_NUMBER_RULE}, as the barcode carries it (never the layout's delimiter); ` +
      'URL-encoded in a path.',
    example: '2990001234567893',
  });

/** A card session as the barcode carries it. */
export const CardSessionText = singleLine(
  z.string({ error: cardSessionMessage }).regex(SESSION, { error: cardSessionMessage }),
).meta({
  description:
    `Payment session identifier from the barcode: ${CARD_SESSION_RULE} ` +
    "(exactly the layout's cardSessionLength, never its delimiter).",
  example: 'AB12CD34',
});
