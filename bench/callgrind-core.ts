// Instructions per verification of the wasm core alone (no result objects,
// no store): `valgrind --tool=callgrind node --import tsx bench/callgrind-core.ts <case> <n>`
// for n and 2n; (I(2n) - I(n)) / n is the figure (start-up cancels out).
// Cases: card-distinct (4,096 cards in turn: every pads look-up misses),
// card-batch (the same in batches of 64), rfc-cached (one step's codes memoised).
import { WasmBackend } from '../adapters/node/backend.js';
import { resolveConfig } from '../adapters/node/config.js';
import { deriveCardKey, generateBarcode } from '../src/entries/index.js';

const KEY = '5f1e0c3a9b7d2468ace013579bdf2468ace013579bdf2468ace013579bdf2468';
const CONFIG = {
  algorythm: 'HMACSHA256',
  passLength: 8,
  prefix: 'CM',
  interval: 30,
  cardSessionLength: 8,
  delimeter: ';',
  key: KEY,
} as const;
const AT = Date.UTC(2026, 10, 22, 12, 0, 15);
const CARDS = 4096;
const BATCH = 64;
const [name = 'card-distinct', countText = '4096'] = process.argv.slice(2);
const count = Number(countText);
const scheme = name.startsWith('rfc') ? 'rfc6238' : 'card-bound';
const core = new WasmBackend(resolveConfig({ ...CONFIG, scheme }));
const cards = Array.from({ length: CARDS }, (_, i) => String(4_000_000_000_000_000 + i * 7919));
const list = cards.map((cardNumber) =>
  generateBarcode({
    ...CONFIG,
    scheme,
    cardNumber,
    ...(scheme === 'card-bound' ? { cardKey: deriveCardKey(KEY, cardNumber, 'HMACSHA256') } : {}),
    cardSession: `S${cardNumber.slice(-7)}`,
    at: AT,
  } as Parameters<typeof generateBarcode>[0]),
);

function run(n: number): void {
  if (name === 'card-batch') {
    const batched = core as unknown as {
      verifyBatch(l: string[], s: number, c: number, t: number): void;
      batchResult: Int32Array;
    };
    for (let i = 0; i < n; i += BATCH) {
      batched.verifyBatch(list, i % CARDS, BATCH, AT);
      for (let j = 0; j < BATCH; j++) if (batched.batchResult[j * 16 + 9] !== 0) throw new Error('refused');
    }
    return;
  }
  for (let i = 0; i < n; i++) if (core.verify(list[i % CARDS]!, AT) !== 0) throw new Error('refused');
}

run(CARDS);
run(count);
