import { createVerifier, generateBarcode, deriveCardKey } from './src/index.ts';
const key = 'a1'.repeat(32);
const cfg = { algorythm: 'HMACSHA256', passLength: 8, prefix: 'CM', key, interval: 30, cardSessionLength: 8, delimeter: ';' } as const;
const now = 1795300000000;
const codes = Array.from({length: 1000}, (_, i) => { const card = String(4000123412340000 + i); return generateBarcode({ ...cfg, cardNumber: card, cardKey: deriveCardKey(key, card, 'HMACSHA256'), cardSession: 'AB12CD34', at: now }); });
const mode = process.argv[2];
const v = createVerifier({ ...cfg, replay: false, lockout: mode === 'lockout' ? undefined : false, clock: () => now });
const N = Number(process.argv[3] ?? 0);
for (let i = 0; i < N; i++) v.barcodeVerify(codes[i % 1000]!);
