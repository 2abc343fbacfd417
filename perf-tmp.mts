import { Core } from './adapters/node/core.ts';
import { configureCore } from './adapters/node/verifier.ts';
import { resolveConfig } from './adapters/node/config.ts';
import { createVerifier, generateBarcode, deriveCardKey } from './src/index.ts';
const key = 'a1'.repeat(32);
const cfg = { algorythm: 'HMACSHA256', passLength: 8, prefix: 'CM', key, interval: 30, cardSessionLength: 8, delimeter: ';' } as const;
const core = new Core(); configureCore(core, resolveConfig(cfg));
const enc = new TextEncoder();
const now = Date.now();
const codes = Array.from({length: 1000}, (_, i) => { const card = String(4000123412340000 + i); return generateBarcode({ ...cfg, cardNumber: card, cardKey: deriveCardKey(key, card, 'HMACSHA256'), cardSession: 'AB12CD34', at: now }); });
const bytes = codes.map(c => enc.encode(c));
function rate(label: string, fn: (i: number) => unknown) {
  for (let i = 0; i < 200000; i++) fn(i);
  const rs = [];
  for (let r = 0; r < 5; r++) { let n = 0; const t = performance.now(); while (performance.now() - t < 400) { for (let i = 0; i < 10000; i++) fn(i); n += 10000; } rs.push(1e9 / (n / ((performance.now() - t) / 1000))); }
  rs.sort((a, b) => a - b); console.log(label.padEnd(28), 'median ns', rs[2]!.toFixed(0), 'min', rs[0]!.toFixed(0));
}
rate('raw wasm verify', (i) => { const b = bytes[i % 1000]!; core.barcode.set(b); if (core.exports.verify(b.length, 0, now) !== 0) throw 1; });
rate('encodeInto+verify', (i) => { const s = codes[i % 1000]!; const r = enc.encodeInto(s, core.barcode); if (core.exports.verify(r.written, 0, now) !== 0) throw 1; });
const v0 = createVerifier({ ...cfg, replay: false, lockout: false, clock: () => now });
rate('verifier no store', (i) => v0.barcodeVerify(codes[i % 1000]!));
const v1 = createVerifier({ ...cfg, replay: false, clock: () => now });
rate('verifier lockout only', (i) => v1.barcodeVerify(codes[i % 1000]!));
