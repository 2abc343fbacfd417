// The native batch against single calls. `verifyBatch` takes the whole batch
// as one joined string, narrows it (ASCII) or transcodes each barcode itself,
// and cuts barcodes past the cap in the JS glue: every code and slot must
// still be the one `verify` gives the same barcode, and the one the wasm batch
// gives, whatever mix of ASCII, multi-byte, broken and over-long barcodes.

import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadNativeBackend } from '../../../adapters/native/index.js';
import type { CoreBackend } from '../../../adapters/core/contract.js';
import { WasmBackend } from '../../../adapters/node/backend.js';
import { resolveConfig, type VerifierConfig } from '../../../adapters/node/config.js';
import { AlgId, BATCH_CODE, BATCH_MAX, BATCH_STRIDE, SchemeId, Slot } from '../../../adapters/core/core.js';
import type { PasswordScheme } from '../../../src/contracts/barcode.js';
import { createVerifier, deriveCardKey, generateBarcode, type Verifier } from '../../../src/entries/index.js';
import { BASE_CONFIG, NOW, PARTNER_KEY } from '../../support/fixtures.js';
import { malformed, randomLayout, randomTime, Rng, tamper, WILD_CHARS } from './generators.js';

const makeNative = loadNativeBackend();
const unavailable = makeNative instanceof Error ? makeNative.message : undefined;
if (unavailable !== undefined) console.log(`native batch tests skipped: ${unavailable}`);

const SCHEMES: readonly PasswordScheme[] = ['rfc6238', 'card-bound'];
const STEP = 30_000;
/** The wasm core's barcode buffer: past it a barcode counts as truncated. */
const CAP = 1024;

function nativeBackend(config: VerifierConfig): CoreBackend {
  return (makeNative as Exclude<typeof makeNative, Error>)(resolveConfig(config));
}

function barcode(scheme: PasswordScheme, cardNumber: string, cardSession: string | undefined, at = NOW): string {
  const keyed =
    scheme === 'card-bound' ? { cardKey: deriveCardKey(PARTNER_KEY, cardNumber, 'HMACSHA256') } : { key: PARTNER_KEY };
  return generateBarcode({ ...BASE_CONFIG, scheme, ...keyed, cardNumber, cardSession, at } as Parameters<
    typeof generateBarcode
  >[0]);
}

/**
 * What `verify` answers for `code`: its code and 9 slots, the counters as a
 * batch leaves them (a batch zeroes them unless the barcode matched; a single
 * call keeps the last match's).
 */
function single(backend: CoreBackend, code: string, now: number): number[] {
  const result = backend.verify(code, now);
  const slots = Array.from(backend.result.subarray(0, 9));
  if (result !== 0) slots[Slot.CounterLo] = slots[Slot.CounterHi] = 0;
  return [result, ...slots];
}

/** Each barcode's code and 9 slots from one `verifyBatch` of `list` from `start`. */
function batch(backend: CoreBackend, list: readonly string[], start: number, count: number, now: number): number[][] {
  backend.verifyBatch(list, start, count, now);
  return Array.from({ length: count }, (_, i) => {
    const base = i * BATCH_STRIDE;
    return [backend.batchResult[base + BATCH_CODE]!, ...backend.batchResult.subarray(base, base + 9)];
  });
}

/** Asserts that a batch of `list` answers item by item as single calls and as the wasm batch do. */
function expectAsSingles(config: VerifierConfig, list: readonly string[], now = NOW): void {
  const native = nativeBackend(config);
  const wasm = new WasmBackend(resolveConfig(config));
  for (let start = 0; start < list.length; start += BATCH_MAX) {
    const count = Math.min(BATCH_MAX, list.length - start);
    const expected = list.slice(start, start + count).map((code) => single(native, code, now));
    expect(batch(native, list, start, count, now)).toEqual(expected);
    expect(batch(wasm, list, start, count, now)).toEqual(expected);
  }
}

/** `head` padded with `fill` to `units` UTF-16 units, then `tail`. */
function padded(head: string, units: number, fill: string, tail = ''): string {
  return head + fill.repeat(Math.max(0, units - head.length) / fill.length) + tail;
}

describe.skipIf(unavailable !== undefined)('native verifyBatch against verify', () => {
  for (const scheme of SCHEMES) {
    describe(scheme, () => {
      const config = { ...BASE_CONFIG, scheme, previousKeys: [] } as VerifierConfig;
      const valid = barcode(scheme, '4000123412341234', 'AB12CD34');
      const validToo = barcode(scheme, 'ABC-123', undefined, NOW - STEP);
      const nonAscii = [
        'CM;Ä;;12345678',
        `${valid}é`,
        valid.replace('AB12CD34', 'AB12CDé4'),
        `CMé${valid.slice(2)}`,
        valid.replace(';', '\u0080;'),
        `${valid.slice(0, -1)}😀`,
        `${valid}\ud800`,
        `\udc00${valid}`,
        valid.replace(';', '\u0000;'),
        'Ж€😀🐈‍⬛',
        '\uffff',
      ];

      it('answers each barcode as verify does when ASCII and non-ASCII barcodes mix, in any order', () => {
        const ascii = [valid, validToo, 'XX;77;;12345678', 'CM;77;AB;12345678', '', 'CM', 'CM;;;'];
        expectAsSingles(config, [...ascii, ...nonAscii]);
        // The first non-ASCII barcode first: every barcode after it is transcoded on its own.
        expectAsSingles(config, [...nonAscii, ...ascii]);
        expectAsSingles(
          config,
          ascii.flatMap((code, i) => [code, nonAscii[i]!]),
        );
        expect(batch(nativeBackend(config), [valid, nonAscii[1]!, validToo], 0, 3, NOW).map((item) => item[0])).toEqual(
          [0, 2, 0],
        );
      });

      it('answers barcodes at, astride and far past the 1,024-byte cap as verify does', () => {
        const head = 'CM;4000123412341234;';
        const long = [
          padded(head, CAP, '1'),
          padded(head, CAP + 1, '1'),
          padded(head, CAP + 2, '1'),
          padded(head, CAP - 8, '1', '12345678'),
          padded(head, CAP - 1, '1', 'é'),
          padded(head, CAP - 2, '1', 'é'),
          padded(head, CAP, '1', 'é'),
          padded(head, CAP - 2, '1', '€'),
          padded(head, CAP - 3, '1', '😀'),
          padded(head, CAP - 1, '1', '😀'),
          padded(head, CAP, '1', '😀1'),
          padded(head, CAP, '1', '\ud800'),
          padded(head, CAP - 1, '1', '\ud800\udc00\ud800'),
          padded(head, 600, 'é'),
          padded(head, 2000, 'é'),
          padded(head, 2000, '😀'),
          padded('CM', CAP + 5, ';'),
          `${valid};${'9'.repeat(CAP)}`,
          padded(head, 1 << 20, '7'),
          padded(head, (1 << 20) + 1, '😀'),
        ];
        // Valid barcodes after each long one: their offsets in the joined string follow a cut barcode's.
        expectAsSingles(
          config,
          long.flatMap((code) => [code, valid]),
        );
        expectAsSingles(config, [...long.map((code) => code.replace(/1/g, 'A')), validToo]);
        const answers = batch(nativeBackend(config), [padded(head, 1 << 20, '7'), valid], 0, 2, NOW);
        expect(answers.map((item) => item[0])).toEqual([2, 0]);
      });

      it('answers random batches as verify does when layouts, times, offsets and inputs vary', () => {
        const rng = new Rng(20261127 + scheme.length);
        let items = 0;
        for (let round = 0; round < 40; round++) {
          const layout = { ...randomLayout(rng), scheme };
          const now = randomTime(rng, layout.interval);
          const d = layout.delimeter;
          const make = (): string => {
            const cardNumber = rng.string(rng.int(1, 20), '0123456789');
            const code = generateBarcode({
              ...layout,
              cardNumber,
              at: now,
              cardSession: rng.string(layout.cardSessionLength, 'ABCDEFGH0123'),
              ...(scheme === 'card-bound' ? { cardKey: deriveCardKey(layout.key, cardNumber, layout.algorythm) } : {}),
            });
            const kind = rng.next();
            return kind < 0.4
              ? code
              : kind < 0.7
                ? tamper(rng, code, code, d)
                : kind < 0.9
                  ? malformed(rng, layout)
                  : code + rng.pick(WILD_CHARS);
          };
          const list = Array.from({ length: rng.int(0, 150) }, make);
          const start = rng.int(0, list.length);
          items += list.length - start;
          expectAsSingles(layout, list.slice(start), now);
        }
        expect(items).toBeGreaterThan(1000);
      });
    });
  }

  it('verifies nothing and writes no slot when the batch is empty', () => {
    const native = nativeBackend(BASE_CONFIG);
    native.batchResult.fill(7);
    native.verifyBatch([], 0, 0, NOW);
    expect(native.batchResult.every((slot) => slot === 7)).toBe(true);
  });

  it('throws a TypeError when the backend is handed something other than strings', () => {
    const native = nativeBackend(BASE_CONFIG);
    expect(() => native.verifyBatch(['CM;1;;12345678', 42 as unknown as string], 0, 2, NOW)).toThrow(TypeError);
    expect(() => native.verifyBatch(['CM;1;;12345678'], 0, 2, NOW)).toThrow(TypeError);
  });

  describe('the addon', () => {
    interface RawCore {
      readonly batchSpans: ArrayBuffer;
      readonly batchResult: ArrayBuffer;
      verifyBatch(joined: unknown, count: unknown, nowMs: unknown): void;
    }
    const addon = createRequire(import.meta.url)('../../../adapters/native/build/Release/wallet_core.node') as {
      Core: new (...args: unknown[]) => RawCore;
    };
    const raw = () => new addon.Core(AlgId.Sha256, 8, 30, 8, 1, 'CM', ';', PARTNER_KEY, '', SchemeId.rfc6238, []);

    it('refuses a joined string its spans do not add up to, spans past the cap and counts past the batch', () => {
      const core = raw();
      const spans = new Int32Array(core.batchSpans);
      spans.set([3, 4]);
      expect(() => core.verifyBatch('abcdefg', 2, NOW)).not.toThrow();
      expect(() => core.verifyBatch('abcdefgh', 2, NOW)).toThrow(TypeError);
      expect(() => core.verifyBatch('abcdef', 2, NOW)).toThrow(TypeError);
      expect(() => core.verifyBatch(['abc', 'defg'], 2, NOW)).toThrow(TypeError);
      spans.set([CAP + 2, 0]);
      expect(() => core.verifyBatch('x'.repeat(CAP + 2), 1, NOW)).toThrow(TypeError);
      spans.set([-1]);
      expect(() => core.verifyBatch('', 1, NOW)).toThrow(TypeError);
      spans.fill(0);
      expect(() => core.verifyBatch('', BATCH_MAX, NOW)).not.toThrow();
      expect(() => core.verifyBatch('', BATCH_MAX + 1, NOW)).toThrow(TypeError);
      expect(() => core.verifyBatch('', 1, 'now')).toThrow(TypeError);
    });
  });

  describe('through barcodeVerifyBatch', () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });

    /** Counts (start, count) of each backend verifyBatch call the verifier makes. */
    function spyOnBatches(): Array<[number, number]> {
      const calls: Array<[number, number]> = [];
      const prototype = Object.getPrototypeOf(nativeBackend(BASE_CONFIG)) as CoreBackend;
      const original = prototype.verifyBatch;
      vi.spyOn(prototype, 'verifyBatch').mockImplementation(function (this: CoreBackend, list, start, count, now) {
        calls.push([start, count]);
        original.call(this, list, start, count, now);
      });
      return calls;
    }

    for (const size of [BATCH_MAX, BATCH_MAX + 1]) {
      it(
        `answers a batch of ${size} as barcodeVerify one after the other, in ${Math.ceil(size / BATCH_MAX)} core ` +
          `calls`,
        async () => {
          const config = {
            ...BASE_CONFIG,
            scheme: 'card-bound',
            backend: 'native',
            clock: () => NOW,
            lockout: { maxFailures: 3, coolDownSeconds: 60 },
          } as const;
          const list = Array.from({ length: size }, (_, i) =>
            barcode('card-bound', String(4_000_000_000_000_000 + i * 7919), i % 2 ? undefined : 'AB12CD34'),
          );
          // Last in the batch: one past the cap, a non-ASCII one and a replay (the last two astride the chunks in a
          // batch of 65).
          list[size - 3] = padded(list[size - 3]!, 3 * CAP, '7');
          list[size - 2] = `${list[size - 2]!}é`;
          list[size - 1] = list[0]!;
          list[3] = list[3]!.replace(/\d$/, (digit) => String((Number(digit) + 1) % 10));
          const calls = spyOnBatches();
          const batchVerifier = createVerifier(config) as Verifier;
          const singleVerifier = createVerifier(config) as Verifier;
          const answers = batchVerifier.barcodeVerifyBatch(list);
          expect(calls).toEqual(
            size === BATCH_MAX
              ? [[0, BATCH_MAX]]
              : [
                  [0, BATCH_MAX],
                  [BATCH_MAX, 1],
                ],
          );
          const expected = list.map((code) => singleVerifier.barcodeVerify(code));
          expect(answers).toEqual(expected);
          expect(answers.map((answer) => answer.reason).filter((reason) => reason !== 'OK')).toEqual([
            'CODE_MISMATCH',
            'MALFORMED',
            'MALFORMED',
            'REPLAYED',
          ]);
          await batchVerifier.close();
          await singleVerifier.close();
        },
      );
    }

    it('answers an empty batch with an empty array without calling the core', () => {
      const calls = spyOnBatches();
      const verifier = createVerifier({ ...BASE_CONFIG, backend: 'native' }) as Verifier;
      expect(verifier.barcodeVerifyBatch([])).toEqual([]);
      expect(calls).toEqual([]);
    });
  });
});
