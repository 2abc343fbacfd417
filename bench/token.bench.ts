import { createVerifier } from '../src/entries/index.js';
import { createNodeCryptoSigner } from './baselines/node-crypto-token.js';
import type { BenchGroup } from './harness.js';

const KEY = '5f1e0c3a9b7d2468ace013579bdf2468ace013579bdf2468ace013579bdf2468';

/** A checkout body of about 2 kB: the realistic size of a mid-sized basket. */
export function checkoutBody(targetBytes = 2048): string {
  const items: unknown[] = [];
  const body = {
    requestId: 'req-2026-11-22-000123',
    cardSession: 'AB12CD34',
    discountAmount: 5000,
    totalAmount: 0,
    items,
  };
  for (let n = 1; JSON.stringify(body).length < targetBytes - 90; n++) {
    items.push({
      name: `Молоко 3,2% ${n}`,
      article: `ART-${100000 + n}`,
      measure: 'PIECE',
      quantity: 1 + (n % 3),
      price: 8990 + n,
    });
  }
  return JSON.stringify(body);
}

/** getToken on a 2 kB checkout body against node:crypto createHmac doing the same signing. */
export function tokenGroup(): BenchGroup {
  const body = checkoutBody();
  const kit = createVerifier({
    algorythm: 'HMACSHA256',
    passLength: 8,
    prefix: 'CM',
    interval: 30,
    cardSessionLength: 8,
    delimeter: ';',
    key: KEY,
    backend: 'wasm',
  });
  const node = createNodeCryptoSigner(KEY, { validateJson: false });
  const nodeValidating = createNodeCryptoSigner(KEY, { validateJson: true });
  return {
    title: `getToken, ${Buffer.byteLength(body)}-byte checkout body`,
    cases: [
      ['kit getToken (wasm, JSON validated)', () => kit.getToken(body)],
      ['node:crypto createHmac, same JWS', () => node(body)],
      ['node:crypto createHmac, same JWS + JSON.parse', () => nodeValidating(body)],
    ],
    ratios: [
      {
        label: 'kit vs node:crypto signing',
        subject: 'kit getToken (wasm, JSON validated)',
        baseline: 'node:crypto createHmac, same JWS',
        target: 2,
      },
      {
        label: 'kit vs node:crypto, both validating JSON',
        subject: 'kit getToken (wasm, JSON validated)',
        baseline: 'node:crypto createHmac, same JWS + JSON.parse',
        target: 1,
      },
    ],
    notes: [
      "The kit validates requestData as JSON (issue 2: getToken rejects non-JSON text); the issue's baseline does not.",
      "node:crypto hashes through OpenSSL, which uses the CPU's SHA extensions where present; wasm has no such " +
        'instructions.',
    ],
  };
}
