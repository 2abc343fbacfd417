const HEX = /^(?:[0-9a-fA-F]{2})+$/;

/** True for a non-empty, even-length hex string. */
export function isHex(text: string): boolean {
  return HEX.test(text);
}

/** Decodes hex (already validated) to bytes. */
export function hexToBytes(text: string): Uint8Array {
  return Buffer.from(text, 'hex');
}

/** Encodes bytes as lower-case hex. */
export function bytesToHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}
