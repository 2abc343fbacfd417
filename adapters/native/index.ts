import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { type CoreBackend, type CoreSettings, kidTail } from '../core/contract.js';
import { AlgId, BARCODE_CAP, BATCH_MAX, SchemeId } from '../core/core.js';

/** One configured native core (see adapters/native/src/native_core.h). */
interface NativeCore {
  /** 9 int32 result slots the addon writes on every verify. */
  readonly result: ArrayBuffer;
  verify(fullBarcode: string, nowMs: number): number;
  /** BATCH_MAX * BATCH_STRIDE int32 slots the addon writes on every verifyBatch. */
  readonly batchResult: ArrayBuffer;
  /** BATCH_MAX int32s the caller fills before verifyBatch: how many UTF-16 units of `joined` each barcode takes. */
  readonly batchSpans: ArrayBuffer;
  /** Verifies the `count` barcodes joined in `joined` (split as `batchSpans` says) at `nowMs` into `batchResult`. */
  verifyBatch(joined: string, count: number, nowMs: number): void;
  sign(requestData: string, iat: number): string | number;
  wipe(): void;
}

/** What `wallet_core.node` exports. */
interface Addon {
  Core: new (
    alg: number,
    passLength: number,
    interval: number,
    sessionLength: number,
    window: number,
    prefix: string,
    delimiter: string,
    keyHex: string,
    kidTail: string,
    scheme: number,
    previousKeysHex: string[],
  ) => NativeCore;
  selfTest(): boolean;
}

const ADDON = 'build/Release/wallet_core.node';
/**
 * UTF-16 units of a barcode a batch hands the addon: past BARCODE_CAP + 1 a
 * barcode is truncated whatever follows (each unit is a byte at least). A
 * module constant: the batch loop reads it per barcode, and an import is a
 * getter call wherever a loader turns this module into CommonJS (tsx does).
 */
const BATCH_UNITS = BARCODE_CAP + 1;
// Source layout: adapters/native/index.ts; compiled: dist/adapters/native/index.js (the addon stays in
// adapters/native).
const CANDIDATES = [`./${ADDON}`, `../../../adapters/native/${ADDON}`];

/** The addon's core behind the backend interface; its result slots are shared, not copied. */
class NativeBackend implements CoreBackend {
  readonly name = 'native';
  readonly result: Int32Array;
  readonly batchMax = BATCH_MAX;
  readonly batchResult: Int32Array;
  readonly #core: NativeCore;
  readonly #spans: Int32Array;

  constructor(addon: Addon, config: CoreSettings) {
    this.#core = new addon.Core(
      config.algorythm === 'HMACSHA1' ? AlgId.Sha1 : AlgId.Sha256,
      config.passLength,
      config.interval,
      config.cardSessionLength,
      config.window,
      config.prefix,
      config.delimeter,
      config.key,
      kidTail(config.partnerId),
      SchemeId[config.scheme],
      [...config.previousKeys],
    );
    this.result = new Int32Array(this.#core.result);
    this.batchResult = new Int32Array(this.#core.batchResult);
    this.#spans = new Int32Array(this.#core.batchSpans);
  }

  verify(fullBarcode: string, nowMs: number): number {
    return this.#core.verify(fullBarcode, nowMs);
  }

  verifyBatch(fullBarcodes: readonly string[], start: number, count: number, nowMs: number): void {
    // One string for the whole batch: the addon copies it in one call, where reading
    // each element of an array through N-API costs more than the single call's crossing.
    const spans = this.#spans;
    let joined = '';
    for (let i = 0; i < count; i++) {
      let fullBarcode = fullBarcodes[start + i]!;
      if (typeof fullBarcode !== 'string') throw new TypeError('verifyBatch: fullBarcodes must hold strings');
      if (fullBarcode.length > BATCH_UNITS) fullBarcode = fullBarcode.slice(0, BATCH_UNITS);
      spans[i] = fullBarcode.length;
      joined += fullBarcode;
    }
    this.#core.verifyBatch(joined, count, nowMs);
  }

  sign(requestData: string, iat: number): string | number {
    return this.#core.sign(requestData, iat);
  }

  wipe(): void {
    this.#core.wipe();
  }
}

/** What builds the addon again: in a project that installed the kit, `npm rebuild` re-runs its install script. */
const REBUILD = import.meta.url.includes('/node_modules/') ? 'npm rebuild wallet-partner-kit' : 'npm run build:native';

function load(): ((config: CoreSettings) => CoreBackend) | Error {
  const path = CANDIDATES.map((relative) => fileURLToPath(new URL(relative, import.meta.url))).find((p) =>
    existsSync(p),
  );
  if (path === undefined) return new Error(`${ADDON} not found (run \`${REBUILD}\`)`);
  let addon: Addon;
  try {
    addon = createRequire(import.meta.url)(path) as Addon;
  } catch (error) {
    return new Error(`${ADDON} failed to load: ${(error as Error).message.split('\n')[0]}`);
  }
  // Known answers first: a host whose OpenSSL misbehaves must not verify anything.
  if (typeof addon.Core !== 'function' || addon.selfTest() !== true) return new Error(`${ADDON} failed its self-test`);
  return (config) => new NativeBackend(addon, config);
}

let cached: ((config: CoreSettings) => CoreBackend) | Error | undefined;

/** Builds native backends, or says why the addon cannot be used. Loaded once per process. */
export function loadNativeBackend(): ((config: CoreSettings) => CoreBackend) | Error {
  cached ??= load();
  return cached;
}
