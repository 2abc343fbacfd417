// The cores report a field's place in the barcode's UTF-8 bytes; in a barcode
// of ASCII only (nearly every one) those are also its string indices.

// biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range, controls included
const ASCII = /^[\u0000-\u007f]*$/;

/** The text of the `length` UTF-8 bytes at byte `offset` of `text`. */
export function byteSlice(text: string, offset: number, length: number): string {
  if (ASCII.test(text)) return text.slice(offset, offset + length);
  return Buffer.from(text, 'utf8').toString('utf8', offset, offset + length);
}
