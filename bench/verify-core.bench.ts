import { loadNativeBackend } from '../adapters/native/index.js';
import { createVerifier, generateBarcode, type Verifier } from '../src/entries/index.js';
import type { BenchGroup } from './harness.js';
import { AT, benchBarcodes, benchCards, CARDS, CONFIG } from './verify.bench.js';

const STEP = 30_000;
/** Barcodes per barcodeVerifyBatch call in the batch cases: one core call's worth. */
export const BATCH = 64;
/** Cards a till sees again within the cache's reach (the card-bound rescan case). */
const RESCAN_CARDS = 512;

/** rfc6238 barcodes of the bench cards, drawn at `at(i)` for card i. */
export function rfcBarcodes(cards: string[], at: (i: number) => number): string[] {
  return cards.map((cardNumber, i) =>
    generateBarcode({
      ...CONFIG,
      scheme: 'rfc6238',
      key: CONFIG.key,
      cardNumber,
      cardSession: `S${cardNumber.slice(-7)}`,
      at: at(i),
    }),
  );
}

/** `list` in consecutive batches of BATCH (a short tail dropped). */
export function batches(list: string[]): string[][] {
  return Array.from({ length: Math.floor(list.length / BATCH) }, (_, i) => list.slice(i * BATCH, (i + 1) * BATCH));
}

/** A case that verifies `list` round-robin through `verify`, failing loudly on a refusal. */
function roundRobin(verifier: Verifier, list: string[]): () => void {
  let i = 0;
  return () => {
    if (!verifier.barcodeVerify(list[i++ % list.length]!).totpCodeValid)
      throw new Error('benchmark input did not verify');
  };
}

function batchRobin(verifier: Verifier, list: string[][]): () => void {
  let i = 0;
  return () => {
    for (const answer of verifier.barcodeVerifyBatch(list[i++ % list.length]!)) {
      if (!answer.totpCodeValid) throw new Error('benchmark input did not verify');
    }
  };
}

/**
 * The wasm core's verification paths with rate goals of their own, store on (lockout counters
 * looked up; replay off, as a benchmark repeats its inputs): rfc6238 with the
 * step's codes memoised and with every call in a new step; card-bound on
 * distinct cards, on rescans, and in batches.
 */
export function verifyCoreGroup(backend: 'wasm' | 'native' = 'wasm'): BenchGroup {
  const cards = benchCards();
  const steady = () => AT;
  const rfc = createVerifier({ ...CONFIG, scheme: 'rfc6238', backend, clock: steady, replay: false }) as Verifier;
  const rfcNow = rfcBarcodes(cards, () => AT);
  // Uncached: card i's barcode is drawn in step i and verified then, so each call meets a step the memo has not seen.
  let stepIndex = 0;
  const rfcMoving = createVerifier({
    ...CONFIG,
    scheme: 'rfc6238',
    backend,
    clock: () => AT + stepIndex * STEP,
    replay: false,
  }) as Verifier;
  const rfcPerStep = rfcBarcodes(cards, (i) => AT + i * STEP);
  const card = createVerifier({ ...CONFIG, backend, clock: steady, replay: false }) as Verifier;
  const cardBatch = createVerifier({ ...CONFIG, backend, clock: steady, replay: false }) as Verifier;
  const cardRescan = createVerifier({ ...CONFIG, backend, clock: steady, replay: false }) as Verifier;
  const cardBarcodes = benchBarcodes(cards);
  const rescans = cardBarcodes.slice(0, RESCAN_CARDS);
  const cardBatches = batches(cardBarcodes);
  const rfcBatches = batches(rfcNow);
  const rfcBatch = createVerifier({ ...CONFIG, scheme: 'rfc6238', backend, clock: steady, replay: false }) as Verifier;
  const tag = `${backend}, lockout on`;
  return {
    title:
      `barcodeVerify core paths (${backend}): rfc6238 memo hit and miss, card-bound distinct, rescan and batch, ` +
      `${CARDS.toLocaleString('en')} cards`,
    cases: [
      [`rfc6238, step codes memoised (${tag})`, roundRobin(rfc, rfcNow)],
      [
        `rfc6238, a new step every call: uncached (${tag})`,
        () => {
          stepIndex = (stepIndex + 1) % CARDS;
          const n = stepIndex;
          if (!rfcMoving.barcodeVerify(rfcPerStep[n]!).totpCodeValid) throw new Error('benchmark input did not verify');
        },
      ],
      [`rfc6238 batch of ${BATCH}, per barcode (${tag})`, batchRobin(rfcBatch, rfcBatches), BATCH],
      [`card-bound, distinct cards (${tag})`, roundRobin(card, cardBarcodes)],
      [`card-bound, rescans of ${RESCAN_CARDS} cards: pads cached (${tag})`, roundRobin(cardRescan, rescans)],
      [`card-bound batch of ${BATCH}, distinct cards, per barcode (${tag})`, batchRobin(cardBatch, cardBatches), BATCH],
    ],
    floors: [
      {
        label: `rfc6238 rate, memoised (${backend})`,
        subject: `rfc6238, step codes memoised (${tag})`,
        perSecond: backend === 'wasm' ? 1_500_000 : 3_000_000,
      },
      ...(backend === 'wasm'
        ? [
            {
              label: 'card-bound rate, distinct cards, batch (wasm)',
              subject: `card-bound batch of ${BATCH}, distinct cards, per barcode (${tag})`,
              perSecond: 1_000_000,
            },
          ]
        : []),
    ],
    ratios: [
      {
        label: `rfc6238 memoised vs uncached (${backend})`,
        subject: `rfc6238, step codes memoised (${tag})`,
        baseline: `rfc6238, a new step every call: uncached (${tag})`,
        target: 1,
      },
      {
        label: `card-bound batch vs single, distinct cards (${backend})`,
        subject: `card-bound batch of ${BATCH}, distinct cards, per barcode (${tag})`,
        baseline: `card-bound, distinct cards (${tag})`,
        target: 1,
      },
    ],
    notes: [
      'Compressions per verification: rfc6238 uncached 2, memoised 0 (2 per step and key, once); card-bound ' +
        'distinct 6, rescan 2 (the pads cache holds 1,024 cards,',
      'so 10,000 distinct cards in turn always miss); card-bound batch 6 per barcode but as 4-lane SIMD passes ' +
        '(wasm), four barcodes a pass.',
    ],
  };
}

/** The same paths on the native addon. */
export function verifyCoreNativeGroup(): BenchGroup {
  const addon = loadNativeBackend();
  if (addon instanceof Error) {
    return {
      title: 'barcodeVerify core paths (native)',
      cases: [],
      ratios: [],
      notes: [`Not measured: the native addon is unavailable (${addon.message}).`],
    };
  }
  return verifyCoreGroup('native');
}
