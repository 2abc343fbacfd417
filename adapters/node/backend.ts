import { randomFillSync } from 'node:crypto';
import { type CoreBackend, type CoreSettings, kidTail } from '../core/contract.js';
import {
  AlgId,
  BARCODE_CAP,
  BATCH_MAX,
  BATCH_TRUNCATED,
  Core,
  CONFIG_DELIM,
  CONFIG_KID,
  CONFIG_PREFIX,
  IO_CAP,
  SchemeId,
} from '../core/core.js';
import { hexToBytes } from './hex.js';

/** Which implementation of the core runs a verifier. `auto` takes native when it loads, else wasm. */
export type BackendName = 'wasm' | 'native' | 'auto';

const encoder = new TextEncoder();

/** Configures a fresh wasm core: layout, scheme, partner key and previous keys (wiped after), token header tail. */
export function configureCore(core: Core, config: CoreSettings): void {
  const prefix = encoder.encode(config.prefix);
  const delimiter = encoder.encode(config.delimeter);
  core.config.set(prefix, CONFIG_PREFIX);
  core.config.set(delimiter, CONFIG_DELIM);
  core.exports.configure(
    config.algorythm === 'HMACSHA1' ? AlgId.Sha1 : AlgId.Sha256,
    config.passLength,
    config.interval,
    config.cardSessionLength,
    config.window,
    prefix.length,
    delimiter.length,
    SchemeId[config.scheme],
  );
  const key = hexToBytes(config.key);
  core.exports.setPartnerKey(core.loadKey(key));
  key.fill(0);
  for (const previousHex of config.previousKeys) {
    const previous = hexToBytes(previousHex);
    const index = core.exports.addPreviousKey(core.loadKey(previous));
    previous.fill(0);
    if (index < 0) throw new RangeError('previousKeys: too many keys for the core');
  }
  const kid = encoder.encode(kidTail(config.partnerId));
  core.config.set(kid, CONFIG_KID);
  core.exports.setTokenKid(kid.length);
}

/** Feeds the UTF-8 bytes of `text` through the core's IO buffer, chunk by chunk. */
export function streamInto(core: Core, text: string, absorb: (length: number) => void): void {
  if (text.length * 3 <= IO_CAP) {
    absorb(encoder.encodeInto(text, core.io).written);
    return;
  }
  for (let position = 0; position < text.length; ) {
    const { read, written } = encoder.encodeInto(position === 0 ? text : text.slice(position), core.io);
    absorb(written);
    position += read;
  }
}

/** The AssemblyScript core in this process: one instance per verifier, views made once. */
export class WasmBackend implements CoreBackend {
  readonly name = 'wasm';
  readonly result: Int32Array;
  readonly batchMax = BATCH_MAX;
  readonly batchResult: Int32Array;
  readonly #core = new Core();

  constructor(config: CoreSettings) {
    configureCore(this.#core, config);
    this.result = this.#core.result;
    this.batchResult = this.#core.batchResults;
  }

  /** The core itself, for tests and benchmarks that look inside (the card cache's size and hit counts). */
  get core(): Core {
    return this.#core;
  }

  verify(fullBarcode: string, nowMs: number): number {
    const core = this.#core;
    // The barcode's bytes go straight into the core's static buffer; the core splits them there.
    const { read, written } = encoder.encodeInto(fullBarcode, core.barcode);
    return core.exports.verify(written, read < fullBarcode.length ? 1 : 0, nowMs);
  }

  verifyBatch(fullBarcodes: readonly string[], start: number, count: number, nowMs: number): void {
    const core = this.#core;
    const spans = core.batchSpans;
    // Mostly ASCII barcodes: joined and encoded in one go, their byte offsets are their string offsets.
    let joined = '';
    let fits = true;
    for (let i = 0; i < count && fits; i++) {
      const fullBarcode = fullBarcodes[start + i]!;
      fits = fullBarcode.length <= BARCODE_CAP;
      spans[2 * i] = joined.length;
      spans[2 * i + 1] = fullBarcode.length;
      joined += fullBarcode;
    }
    const { read, written } = fits ? encoder.encodeInto(joined, core.io) : { read: 0, written: -1 };
    if (read !== joined.length || written !== joined.length) {
      // Some character took more than a byte (or a barcode is too long): each in a slot of its own.
      for (let i = 0; i < count; i++) {
        const fullBarcode = fullBarcodes[start + i]!;
        const one = encoder.encodeInto(fullBarcode, core.batchSlots[i]!);
        spans[2 * i] = i * BARCODE_CAP;
        spans[2 * i + 1] = one.read < fullBarcode.length ? one.written | BATCH_TRUNCATED : one.written;
      }
    }
    core.exports.verifyBatch(count, nowMs);
  }

  sign(requestData: string, iat: number): string | number {
    const core = this.#core;
    if (core.exports.tokenBegin(iat) < 0) {
      randomFillSync(core.random);
      core.exports.randomRefilled();
      core.exports.tokenBegin(iat);
    }
    streamInto(core, requestData, (length) => core.exports.tokenUpdate(length));
    // The core checked the bytes as JSON while hashing them; a bad body's token is never returned.
    const badAt = core.exports.jsonFinish();
    return badAt >= 0 ? badAt : core.out.toString('latin1', 0, core.exports.tokenFinish());
  }

  wipe(): void {
    // The whole linear memory: pad states, derived card keys, the last barcode
    // and body chunk. The instance is never used again after this.
    new Uint8Array(this.#core.exports.memory.buffer).fill(0);
  }
}
