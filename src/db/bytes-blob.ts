/**
 * A Blob over bytes already in memory, handed over without a copy: Node's own
 * Blob copies the bytes in, then out again in chunks, which for PGlite's
 * megabytes of snapshot and file bundle costs more than unpacking them.
 * `arrayBuffer()` gives the same buffer each time: for readers that only copy
 * out of it (PGlite's `loadDataDir`), never for one that writes into it.
 */
export class BytesBlob extends Blob {
  readonly #bytes: ArrayBuffer;

  constructor(bytes: Uint8Array, type = 'application/octet-stream') {
    super([], { type });
    const whole = bytes.buffer as ArrayBuffer;
    this.#bytes =
      bytes.byteOffset === 0 && bytes.byteLength === whole.byteLength
        ? whole
        : whole.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  }

  override get size(): number {
    return this.#bytes.byteLength;
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#bytes);
  }
}
