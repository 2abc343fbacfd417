// The public shape of a verifier: its interface, its call options, and the result types its store and hook give.
import type { AcceptedVerification, BarcodeVerification, RefusedVerification } from '../../src/contracts/barcode.js';
import type { AsyncStore, SyncStore, VerificationStore } from '../../src/stores/store.js';
import type { BonusAnswer } from './config.js';

/** Options of one `barcodeVerify` call. */
export interface VerifyOptions {
  /**
   * Who asks (e.g. a till id). The same requester asking again about the same
   * barcode while its password is valid gets the first answer again, with
   * `repeated: true` (a till whose answer was lost may retry); anyone else, or
   * a call without a requester, gets REPLAYED.
   */
  requester?: string;
}

/**
 * What `barcodeVerify` answers for a verifier over a store of kind `S` whose
 * bonus hook answers `A`, as the verifier does at run time:
 * - an async store (Redis): a promise for every barcode, refused ones included;
 * - else a hook answering with a promise: a promise for a valid password (the
 *   hook is asked only then), the refusal itself otherwise;
 * - else (no store, a `MemoryStore`, no hook or a synchronous one): the result itself.
 * A union of kinds gives the union of their answers.
 */
export type VerifyResult<
  S extends VerificationStore | false = SyncStore | false,
  A extends BonusAnswer = boolean,
> = S extends AsyncStore
  ? Promise<BarcodeVerification>
  : [A] extends [boolean]
    ? BarcodeVerification
    : RefusedVerification | (A extends Promise<boolean> ? Promise<AcceptedVerification> : AcceptedVerification);

/**
 * What `barcodeVerifyBatch` answers when single answers are `R`: an array when
 * none can be a promise; a promise of one when all are; when some may be (a
 * hook answering with a promise), an array of those that are not, or a promise
 * of the whole array as soon as one is.
 */
export type BatchOf<R> = [R] extends [PromiseLike<unknown>]
  ? Promise<Awaited<R>[]>
  : [Extract<R, PromiseLike<unknown>>] extends [never]
    ? R[]
    : Exclude<R, PromiseLike<unknown>>[] | Promise<Awaited<R>[]>;

/**
 * A configured verifier. `R` is the result type of `barcodeVerify`: the result
 * itself with an in-process store, a promise with a shared (Redis) one; see
 * {@link VerifyResult}.
 */
export interface Verifier<R = BarcodeVerification> {
  /** Splits and checks a scanned barcode (section 2.2); never throws on a string. */
  barcodeVerify(fullBarcode: string, options?: VerifyOptions): R;
  /**
   * Verifies several barcodes in one call, answering in their order, each as
   * `barcodeVerify` would one after the other (the bridge's batch frames and
   * `POST /v1/barcode/verify-batch` use it).
   *
   * @example
   * const [first, second] = verifier.barcodeVerifyBatch([scanA, scanB]);
   */
  barcodeVerifyBatch(fullBarcodes: readonly string[], options?: VerifyOptions): BatchOf<R>;
  /**
   * Signs the JSON text of a Pay API request body (the README's "Pay API tokens"), by the config's `token`: the
   * value for the token header. A `sign` function that throws or answers no string: `TokenSignerError`.
   */
  getToken(requestData: string): string;
  /**
   * How `getToken` computes: `kit`, `hmac-sha256-hex`, `hmac-sha256-base64`, or `sign` (the config's function).
   * The kit's verifiers always say; optional so that a test's stand-in need not.
   */
  readonly tokenScheme?: string;
  /** Releases the verifier (and the store it created itself); later calls throw VERIFIER_CLOSED. */
  close(): Promise<void>;
  /** The core implementation in use. */
  readonly backend: 'wasm' | 'native';
}
