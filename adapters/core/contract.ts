import type { Algorythm, PasswordScheme } from '../../src/contracts/barcode.js';

/**
 * What a core is built from: the fields of a resolved verifier config (`ResolvedConfig` in
 * adapters/node/config.ts) that both backends read. Declared here, below both, so the native
 * backend needs nothing of the verifier's package.
 */
export interface CoreSettings {
  readonly algorythm: Algorythm;
  readonly passLength: number;
  readonly interval: number;
  readonly cardSessionLength: number;
  readonly window: number;
  readonly prefix: string;
  readonly delimeter: string;
  /** The partner key, hex. */
  readonly key: string;
  readonly previousKeys: readonly string[];
  readonly scheme: PasswordScheme;
  readonly partnerId?: string | undefined;
}

/**
 * What a core implementation gives the verifier: the split-and-check of a
 * barcode and the token signature. Both backends produce identical results;
 * the policy around them (stores, results, errors) lives once, in the verifier.
 */
export interface CoreBackend {
  readonly name: 'wasm' | 'native';
  /** Result slots of the last `verify` (see `Slot`). */
  readonly result: Int32Array;
  /** Splits and checks `fullBarcode` at `nowMs`; returns a `VerifyCode` and fills `result`. */
  verify(fullBarcode: string, nowMs: number): number;
  /** Most barcodes one `verifyBatch` call takes. */
  readonly batchMax: number;
  /**
   * Result slots of the last `verifyBatch`: BATCH_STRIDE per barcode, the
   * `Slot`s then its `VerifyCode` at BATCH_CODE (the counter slots are 0
   * unless it matched).
   */
  readonly batchResult: Int32Array;
  /**
   * Splits and checks `count` (at most `batchMax`) strings of `fullBarcodes` from `start`, all at `nowMs`, into
   * `batchResult`.
   */
  verifyBatch(fullBarcodes: readonly string[], start: number, count: number, nowMs: number): void;
  /** The token for `requestData` issued at `iat`, or the byte offset where it stops being JSON. */
  sign(requestData: string, iat: number): string | number;
  /** Forgets key material it can reach. */
  wipe(): void;
}

/** The header tail the token carries for a partner id: `,"kid":"..."`, JSON-escaped. */
export function kidTail(partnerId: string | undefined): string {
  return partnerId === undefined ? '' : `,"kid":${JSON.stringify(partnerId)}`;
}
