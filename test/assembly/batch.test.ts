// assembly/batch.ts (the 4-lane SIMD path of card-bound SHA-256 batches, with
// assembly/lanes.ts and the card cache) against node:crypto: every barcode a
// batch accepts must carry the code HMAC-SHA256 gives, and every slot must be
// what the core's own scalar `verify` gives for the same barcode.

import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WasmBackend } from '../../adapters/node/backend.js';
import { resolveConfig, type VerifierConfig } from '../../adapters/node/config.js';
import { BATCH_CODE, BATCH_STRIDE, VerifyCode } from '../../adapters/core/core.js';
import { CARD_BOUND_CONFIG, NOW, PARTNER_KEY } from '../support/fixtures.js';

const STEP_MS = 30_000;
const KEY = Buffer.from(PARTNER_KEY, 'hex');
/** Property runs, sized by count: each run verifies up to three batches of up to 64 barcodes. */
const RUNS = Number(process.env.WPK_BATCH_RUNS ?? 60);

/** The card-bound password (the README's Barcodes), computed with node:crypto alone. */
function password(card: string, session: string, step: number, digits: number): string {
  const cardKey = createHmac('sha256', KEY).update(`card:${card}`).digest();
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const tag = createHmac('sha256', cardKey)
    .update(Buffer.concat([counter, Buffer.from(session)]))
    .digest();
  const value = tag.readUInt32BE(tag[31]! & 15) & 0x7fffffff;
  return String(digits >= 10 ? value : value % 10 ** digits).padStart(digits, '0');
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Cards of every length the one-block path takes (1..50), and some the scalar path streams (51..64). */
const card = fc.oneof(
  { weight: 9, arbitrary: fc.string({ unit: fc.constantFrom(...`${ALPHABET}-`), minLength: 1, maxLength: 50 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...ALPHABET), minLength: 51, maxLength: 64 }) },
);

describe('verifyBatch (wasm core, card-bound SHA-256)', () => {
  it(
    'accepts exactly the passwords node:crypto computes, with the slots scalar verify gives, at every password and ' +
      'session length',
    () => {
      const layout = fc.record({
        passLength: fc.integer({ min: 1, max: 10 }),
        cardSessionLength: fc.integer({ min: 1, max: 47 }),
      });
      fc.assert(
        fc.property(
          layout,
          fc.array(card, { minLength: 1, maxLength: 40 }),
          fc.gen(),
          ({ passLength, cardSessionLength }, cards, gen) => {
            const config = { ...CARD_BOUND_CONFIG, passLength, cardSessionLength, window: 1 } as VerifierConfig;
            const batchCore = new WasmBackend(resolveConfig(config));
            const scalarCore = new WasmBackend(resolveConfig(config));
            const step = Math.floor(NOW / STEP_MS);
            const session = fc.string({
              unit: fc.constantFrom(...ALPHABET),
              minLength: cardSessionLength,
              maxLength: cardSessionLength,
            });
            // Three batches on one core: later ones meet cards the cache holds, some evicted by others in the same
            // batch.
            for (let round = 0; round < 3; round++) {
              const entries = gen(
                fc.array,
                fc.record({
                  card: fc.constantFrom(...cards),
                  session: fc.oneof(fc.constant(''), session),
                  delta: fc.constantFrom(0, 0, 0, -1, 1, 2),
                  garble: fc.constantFrom(0, 0, 0, 1, 5),
                }),
                { minLength: 1, maxLength: 64 },
              );
              const sent = entries.map((e) =>
                [...password(e.card, e.session, step + e.delta, passLength)]
                  .map((d) => String((Number(d) + e.garble) % 10))
                  .join(''),
              );
              const barcodes = entries.map((e, i) => `CM;${e.card};${e.session};${sent[i]}`);
              batchCore.verifyBatch(barcodes, 0, barcodes.length, NOW);
              const slots = batchCore.batchResult;
              entries.forEach((e, i) => {
                const base = i * BATCH_STRIDE;
                const code = slots[base + BATCH_CODE];
                const expected = scalarCore.verify(barcodes[i]!, NOW);
                expect(code, barcodes[i]).toBe(expected);
                // The counter slots (6, 7) mean something only on a match: a single call leaves the last match's there.
                const compared = (view: Int32Array, at: number) =>
                  Array.from(view.subarray(at, at + 9)).filter(
                    (_, k) => code === VerifyCode.Ok || (k !== 6 && k !== 7),
                  );
                expect(compared(slots, base), barcodes[i]).toEqual(compared(scalarCore.result, 0));
                // Short passwords may equal another step's code: the window's first match (0, -1, +1) is the answer.
                const match = [0, -1, 1].find((d) => password(e.card, e.session, step + d, passLength) === sent[i]);
                expect(code === VerifyCode.Ok, barcodes[i]).toBe(match !== undefined);
                if (match !== undefined) expect(slots[base + 5], barcodes[i]).toBe(match);
              });
            }
            // No shrinking: a run is three batches with their oracles, and shrinking nested generated batches ran for
            // minutes (a synchronous loop no test timeout can stop); the failing assertion names its barcode already.
          },
        ),
        { numRuns: RUNS, endOnFailure: true },
      );
    },
  );

  it('gives every batch size from 1 to 64 the answers of single calls (the last pass of four has empty lanes)', () => {
    const config = { ...CARD_BOUND_CONFIG, window: 1 } as VerifierConfig;
    const core = new WasmBackend(resolveConfig(config));
    const step = Math.floor(NOW / STEP_MS);
    for (let size = 1; size <= 64; size++) {
      const barcodes = Array.from({ length: size }, (_, i) => {
        const card = `${size}-${i}`;
        const right = password(card, 'AB12CD34', step, 8);
        return `CM;${card};AB12CD34;${i % 5 === 4 ? right.replace(/^./, (d) => String((Number(d) + 1) % 10)) : right}`;
      });
      core.verifyBatch(barcodes, 0, size, NOW);
      const codes = Array.from({ length: size }, (_, i) => core.batchResult[i * BATCH_STRIDE + BATCH_CODE]);
      expect(codes).toEqual(barcodes.map((_, i) => (i % 5 === 4 ? VerifyCode.CodeMismatch : VerifyCode.Ok)));
    }
  });
});
