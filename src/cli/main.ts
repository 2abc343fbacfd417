#!/usr/bin/env node
import { createVerifier, deriveCardKey, generateBarcode } from '../index.js';

// Until the cash desk server lands (issue 3), `npm start` shows the core at work
// on a clearly marked demo key, then how to use it.
const DEMO_KEY = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff'; // DEMO ONLY, not a real partner key
const config = {
  algorythm: 'HMACSHA256', passLength: 8, prefix: 'CM', key: DEMO_KEY, interval: 30, cardSessionLength: 8, delimeter: ';',
} as const;

const verifier = createVerifier(config);
const cardNumber = '4000123412341234';
const barcode = generateBarcode({ ...config, cardNumber, cardKey: deriveCardKey(DEMO_KEY, cardNumber, config.algorythm), cardSession: 'AB12CD34' });

console.log(`wallet-partner-kit: TOTP loyalty-card barcodes for the wallet application

Demo (key marked DEMO ONLY):
  a wallet app draws   ${barcode}
  barcodeVerify gives  ${JSON.stringify(verifier.barcodeVerify(barcode))}
  scanned again        ${verifier.barcodeVerify(barcode).reason}
  getToken('{"requestId":"r-1"}') = ${verifier.getToken('{"requestId":"r-1"}').slice(0, 40)}...

Use it from code:  import { createVerifier } from 'wallet-partner-kit'   (see README.md)
Tests:             npm test
Benchmarks:        npm run bench
The cash desk server (\`wallet-partner-kit serve\`) comes with the next release.`);
await verifier.close();
