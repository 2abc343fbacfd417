import type { BarcodeVerification } from '../../src/contracts/barcode.js';
import { KitError } from '../../src/errors.js';
import type { VerificationStore } from '../../src/stores/store.js';
import type { BonusAnswer, VerifierConfig } from './config.js';
import { createVerifier } from './verifier.js';
import type { Verifier, VerifyOptions } from './verifier-api.js';

// The document's library surface (section 4.1) is module-level: one instance
// configured by init(). New code should prefer createVerifier().
let instance: Verifier<BarcodeVerification | Promise<BarcodeVerification>> | undefined;

function current(operation: string): Verifier<BarcodeVerification | Promise<BarcodeVerification>> {
  if (instance === undefined) throw new KitError('VERIFIER_CLOSED', `${operation}: call init(config) first`);
  return instance;
}

/**
 * Section 4.1 `init()`: configures the module's default verifier (replacing any earlier one). Takes a config
 * of every kind (an async store or bonus hook too).
 *
 * @example
 * init({ algorythm: 'HMACSHA256', passLength: 8, prefix: 'CM', key, interval: 30, cardSessionLength: 8,
 *   delimeter: ';' });
 */
export function init(config: VerifierConfig<VerificationStore | false, BonusAnswer>): void {
  const next = createVerifier(config);
  const previous = instance;
  instance = next;
  void previous?.close();
}

/**
 * Section 4.1 `barcodeVerify()` on the default verifier. Its type cannot follow the config `init` was given
 * (module state, set at run time), so it is either kind: `await` it, or use `createVerifier`, whose
 * `barcodeVerify` is typed by its config.
 */
export function barcodeVerify(
  fullBarcode: string,
  options?: VerifyOptions,
): BarcodeVerification | Promise<BarcodeVerification> {
  return current('barcodeVerify').barcodeVerify(fullBarcode, options);
}

/** Section 4.1 `getToken()` on the default verifier. */
export function getToken(requestData: string): string {
  return current('getToken').getToken(requestData);
}
