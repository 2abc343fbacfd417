import { loadNativeBackend } from '../adapters/native/index.js';
import { createVerifier } from '../src/entries/index.js';
import { createNodeCryptoSigner } from './baselines/node-crypto-token.js';
import type { BenchGroup } from './harness.js';
import { checkoutBody } from './token.bench.js';
import { AT, benchBarcodes, CARDS, CONFIG } from './verify.bench.js';

/** The native addon against the wasm core in one process: barcodeVerify, and getToken against node:crypto. */
export function nativeGroup(): BenchGroup {
  const title = 'native addon: barcodeVerify vs the wasm core (10,000 cards), getToken vs node:crypto';
  const addon = loadNativeBackend();
  if (addon instanceof Error) {
    return {
      title,
      cases: [],
      ratios: [],
      notes: [`Not measured: the native addon is unavailable (${addon.message}).`],
    };
  }
  const barcodes = benchBarcodes();
  const clock = () => AT;
  // Replay off, as in verify.bench.ts: a benchmark repeats its inputs. Lockout on in the ratio rows (its lookup is paid
  // by both).
  const wasm = createVerifier({ ...CONFIG, clock, replay: false, backend: 'wasm' });
  const native = createVerifier({ ...CONFIG, clock, replay: false, backend: 'native' });
  const wasmBare = createVerifier({ ...CONFIG, clock, replay: false, lockout: false, backend: 'wasm' });
  const nativeBare = createVerifier({ ...CONFIG, clock, replay: false, lockout: false, backend: 'native' });

  const body = checkoutBody();
  const nativeSigner = createVerifier({ ...CONFIG, backend: 'native' });
  const wasmSigner = createVerifier({ ...CONFIG, backend: 'wasm' });
  const nodeCrypto = createNodeCryptoSigner(CONFIG.key, { validateJson: false });

  let i = 0;
  const check = (ok: boolean) => {
    if (!ok) throw new Error('benchmark input did not verify');
  };
  return {
    title,
    cases: [
      [
        'barcodeVerify (native, lockout on)',
        () => {
          check(native.barcodeVerify(barcodes[i++ % CARDS]!).totpCodeValid);
        },
      ],
      [
        'barcodeVerify (wasm, lockout on)',
        () => {
          check(wasm.barcodeVerify(barcodes[i++ % CARDS]!).totpCodeValid);
        },
      ],
      [
        'barcodeVerify (native, no store)',
        () => {
          check(nativeBare.barcodeVerify(barcodes[i++ % CARDS]!).totpCodeValid);
        },
      ],
      [
        'barcodeVerify (wasm, no store)',
        () => {
          check(wasmBare.barcodeVerify(barcodes[i++ % CARDS]!).totpCodeValid);
        },
      ],
      [`getToken (native, JSON validated), ${Buffer.byteLength(body)} B`, () => nativeSigner.getToken(body)],
      [`getToken (wasm, JSON validated), ${Buffer.byteLength(body)} B`, () => wasmSigner.getToken(body)],
      ['node:crypto createHmac, same JWS', () => nodeCrypto(body)],
    ],
    ratios: [
      {
        label: 'native vs wasm barcodeVerify (lockout on)',
        subject: 'barcodeVerify (native, lockout on)',
        baseline: 'barcodeVerify (wasm, lockout on)',
        target: 2,
      },
      {
        label: 'native vs wasm barcodeVerify (no store)',
        subject: 'barcodeVerify (native, no store)',
        baseline: 'barcodeVerify (wasm, no store)',
        target: 2,
      },
      {
        label: 'native getToken vs node:crypto signing',
        subject: `getToken (native, JSON validated), ${Buffer.byteLength(body)} B`,
        baseline: 'node:crypto createHmac, same JWS',
        target: 2.2,
      },
    ],
    notes: [
      'The native core hashes through the OpenSSL inside node (SHA256_Transform and friends, SHA extensions ' +
        'where the CPU has them);',
      'the result object, the store lookup and the JS call are the same JS code for both backends.',
    ],
  };
}
