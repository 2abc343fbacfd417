import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { instantiateSync } from '@assemblyscript/loader';

/** The raw exports of `build/core.wasm` (see `assembly/index.ts`). */
export interface CoreExports {
  memory: WebAssembly.Memory;
  bufferAddress(which: number): number;
  configure(
    alg: number,
    digits: number,
    interval: number,
    sessionLength: number,
    window: number,
    prefixLength: number,
    delimiterLength: number,
    scheme: number,
  ): void;
  setPartnerKey(keyLength: number): void;
  addPreviousKey(keyLength: number): number;
  verify(length: number, truncated: number, nowMs: number): number;
  verifyBatch(count: number, nowMs: number): void;
  cardCacheSize(): number;
  cardCacheHits(): number;
  cardCacheMisses(): number;
  setTokenKid(length: number): void;
  randomRefilled(): void;
  tokenBegin(iat: number): number;
  tokenUpdate(length: number): void;
  tokenFinish(): number;
  jsonFinish(): number;
  macBegin(alg: number, keyLength: number): void;
  macUpdate(length: number): void;
  macEnd(): number;
  otpKey(alg: number, keyLength: number): void;
  otp(counterHi: number, counterLo: number, digits: number, sessionLength: number): void;
  deriveCardKey(cardLength: number): number;
}

/** Buffer capacities, mirrored from `assembly/buffers.ts`. */
export const BARCODE_CAP = 1024;
export const IO_CAP = 65536;
export const KEY_CAP = 1024;
export const OUT_CAP = 1024;
export const CONFIG_CAP = 512;
export const RANDOM_CAP = 4096;
/** Barcodes one `verifyBatch` call takes, each in its own BARCODE_CAP slot of the IO buffer. */
export const BATCH_MAX = IO_CAP / BARCODE_CAP;
/** i32 slots per barcode of a batch result: the `Slot`s, then its `VerifyCode` at `BATCH_CODE`. */
export const BATCH_STRIDE = 16;
export const BATCH_CODE = 9;
/** Flag in a batch length: the barcode did not fit its slot. */
export const BATCH_TRUNCATED = 0x10000;
/** How many cards' derived pads the wasm core keeps (assembly/cardcache.ts). */
export const CARD_CACHE_ENTRIES = 1024;
export const CONFIG_PREFIX = 0;
export const CONFIG_DELIM = 64;
export const CONFIG_KID = 128;

/** Slots of the result area (i32). */
export enum Slot {
  CardOffset = 0,
  CardLength = 1,
  SessionOffset = 2,
  SessionLength = 3,
  PasswordOffset = 4,
  MatchedDelta = 5,
  CounterLo = 6,
  CounterHi = 7,
  KeyIndex = 8,
}

/** Scheme ids of the core. */
export const SchemeId = { rfc6238: 0, 'card-bound': 1 } as const;

/** Codes returned by the core's `verify`. */
export enum VerifyCode {
  Ok = 0,
  PrefixMismatch = 1,
  Malformed = 2,
  CodeMismatch = 3,
}

/** Algorithm ids of the core. */
export enum AlgId {
  Sha1 = 1,
  Sha256 = 2,
}

let compiled: WebAssembly.Module | undefined;

function wasmPath(): string {
  // Source layout: adapters/core/core.ts; published layout: dist/adapters/core/core.js.
  for (const relative of ['../../build/core.wasm', '../../../build/core.wasm']) {
    const path = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(path)) return path;
  }
  throw new Error('build/core.wasm not found: run `npm run build:wasm`');
}

function module(): WebAssembly.Module {
  compiled ??= new WebAssembly.Module(readFileSync(wasmPath()));
  return compiled;
}

/**
 * One instance of the wasm core with its views made once. Memory is fixed in
 * size (no growth), so the views never detach.
 */
export class Core {
  readonly exports: CoreExports;
  readonly barcode: Uint8Array;
  readonly io: Uint8Array;
  readonly key: Uint8Array;
  readonly out: Buffer;
  readonly config: Uint8Array;
  readonly random: Uint8Array;
  readonly result: Int32Array;
  /** One view per batch slot of the IO buffer (made once: encodeInto writes straight into them). */
  readonly batchSlots: Uint8Array[];
  /** Per barcode of a batch: its byte offset in `io`, and its length (| BATCH_TRUNCATED). */
  readonly batchSpans: Int32Array;
  readonly batchResults: Int32Array;

  constructor() {
    const instance = instantiateSync<Record<string, unknown>>(module(), {});
    this.exports = instance.exports as unknown as CoreExports;
    const { buffer } = this.exports.memory;
    const at = (which: number) => this.exports.bufferAddress(which);
    this.barcode = new Uint8Array(buffer, at(0), BARCODE_CAP);
    this.io = new Uint8Array(buffer, at(1), IO_CAP);
    this.key = new Uint8Array(buffer, at(2), KEY_CAP);
    this.out = Buffer.from(buffer, at(3), OUT_CAP);
    this.config = new Uint8Array(buffer, at(4), CONFIG_CAP);
    this.random = new Uint8Array(buffer, at(5), RANDOM_CAP);
    this.result = new Int32Array(buffer, at(6), 16);
    this.batchSlots = Array.from(
      { length: BATCH_MAX },
      (_, i) => new Uint8Array(buffer, at(1) + i * BARCODE_CAP, BARCODE_CAP),
    );
    this.batchSpans = new Int32Array(buffer, at(7), BATCH_MAX * 2);
    this.batchResults = new Int32Array(buffer, at(8), BATCH_MAX * BATCH_STRIDE);
  }

  /** Copies key bytes in; the core wipes them once absorbed. */
  loadKey(bytes: Uint8Array): number {
    if (bytes.length > KEY_CAP) throw new RangeError(`key: must be at most ${KEY_CAP} bytes`);
    this.key.set(bytes);
    return bytes.length;
  }
}
