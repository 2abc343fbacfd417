// Instruction counts of the verification paths, steady whatever the load:
// `node --import tsx bench/callgrind-verify.ts <case> <n>` runs n verifications
// of one case after a warm-up; under `valgrind --tool=callgrind` the difference
// between runs of n and 2n, divided by n, is the instructions per verification
// (start-up, imports and JIT warm-up cancel out). bench/callgrind.sh does this; bench/callgrind-phases.sh
// counts the main thread between markers instead, in one process (steadier).
// Cases: rfc-cached, rfc-uncached, rfc-batch, card-distinct, card-rescan,
// card-batch; token (getToken, 2,081-byte body) and token-node-crypto.
import { hostname } from 'node:os';
import { createVerifier, deriveCardKey, generateBarcode, type Verifier } from '../src/entries/index.js';
import { createNodeCryptoSigner } from './baselines/node-crypto-token.js';
import { checkoutBody } from './token.bench.js';

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
const STEP = 30_000;
const CARDS = 10_000;
const BATCH = 64;

const [name = 'card-distinct', countText = '20000', backendText = 'wasm'] = process.argv.slice(2);
const count = Number(countText);
const backend = backendText as 'wasm' | 'native';
const cards = Array.from({ length: CARDS }, (_, i) => String(4_000_000_000_000_000 + i * 7919));
const session = (card: string) => `S${card.slice(-7)}`;
const rfc = (at: (i: number) => number) =>
  cards.map((cardNumber, i) =>
    generateBarcode({
      ...CONFIG,
      scheme: 'rfc6238',
      cardNumber,
      cardSession: session(cardNumber),
      at: at(i),
    }),
  );
const cardBound = () =>
  cards.map((cardNumber) =>
    generateBarcode({
      ...CONFIG,
      scheme: 'card-bound',
      cardNumber,
      cardKey: deriveCardKey(KEY, cardNumber, 'HMACSHA256'),
      cardSession: session(cardNumber),
      at: AT,
    }),
  );

let step = 0;
const clock = name === 'rfc-uncached' ? () => AT + step * STEP : () => AT;
const scheme = name.startsWith('rfc') ? 'rfc6238' : 'card-bound';
const verifier = createVerifier({ ...CONFIG, scheme, backend, clock, replay: false }) as Verifier;
const list = name === 'rfc-uncached' ? rfc((i) => AT + i * STEP) : scheme === 'rfc6238' ? rfc(() => AT) : cardBound();
const used = name === 'card-rescan' ? list.slice(0, 512) : list;
const batches = Array.from({ length: Math.floor(used.length / BATCH) }, (_, i) =>
  used.slice(i * BATCH, (i + 1) * BATCH),
);

const body = checkoutBody();
const nodeSigner = createNodeCryptoSigner(KEY, { validateJson: false });

function run(n: number): void {
  if (name === 'token') {
    for (let i = 0; i < n; i++) verifier.getToken(body);
    return;
  }
  if (name === 'token-node-crypto') {
    for (let i = 0; i < n; i++) nodeSigner(body);
    return;
  }
  if (name.endsWith('-batch')) {
    for (let i = 0; i < n / BATCH; i++) {
      for (const answer of verifier.barcodeVerifyBatch(batches[i % batches.length]!))
        if (!answer.totpCodeValid) throw new Error('refused');
    }
    return;
  }
  for (let i = 0; i < n; i++) {
    step = i % CARDS;
    if (!verifier.barcodeVerify(used[i % used.length]!).totpCodeValid) throw new Error('refused');
  }
}

// The warm-up is the same for every n, so it cancels out with the rest of the start-up.
run(10_000);
// bench/callgrind-phases.sh dumps the counts at each os.hostname() (callgrind --dump-before): the
// measured run, then the same again, each counted alone in one process (a second run checks the first).
hostname();
run(count);
hostname();
run(count);
hostname();
