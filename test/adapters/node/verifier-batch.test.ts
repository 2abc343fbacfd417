// barcodeVerifyBatch against barcodeVerify one call after the other, on both
// backends and both schemes: the same answers in the same order, replay,
// lockout and requester retries included, whatever the batch holds.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadNativeBackend } from '../../../adapters/native/index.js';
import type { VerifierConfig } from '../../../adapters/node/config.js';
import type { BarcodeVerification, PasswordScheme } from '../../../src/contracts/barcode.js';
import {
  createVerifier,
  deriveCardKey,
  generateBarcode,
  MemoryStore,
  type Verifier,
} from '../../../src/entries/index.js';
import type { AsyncStore } from '../../../src/stores/store.js';
import { BASE_CONFIG, NOW, PARTNER_KEY } from '../../support/fixtures.js';

const OLD_KEY = 'a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf';
const STEP = 30_000;
const BACKENDS = loadNativeBackend() instanceof Error ? ['wasm' as const] : ['wasm' as const, 'native' as const];
const SCHEMES: readonly PasswordScheme[] = ['rfc6238', 'card-bound'];
/** Property runs, sized by count: each run verifies up to 150 barcodes twice. */
const RUNS = Number(process.env.WPK_BATCH_RUNS ?? 60);

type Layout = Partial<VerifierConfig> & { scheme: PasswordScheme };

function barcode(
  layout: Layout,
  cardNumber: string,
  cardSession: string | undefined,
  at = NOW,
  key = PARTNER_KEY,
): string {
  const algorythm = (layout.algorythm ?? 'HMACSHA256') as 'HMACSHA256' | 'HMACSHA1';
  const keyed = layout.scheme === 'card-bound' ? { cardKey: deriveCardKey(key, cardNumber, algorythm) } : { key };
  return generateBarcode({ ...BASE_CONFIG, ...layout, ...keyed, cardNumber, cardSession, at } as Parameters<
    typeof generateBarcode
  >[0]);
}

function withPassword(code: string, password: string): string {
  return code.slice(0, code.lastIndexOf(';') + 1) + password;
}

function otherDigits(code: string): string {
  const password = code.slice(code.lastIndexOf(';') + 1);
  return withPassword(code, [...password].map((d) => String((Number(d) + 3) % 10)).join(''));
}

/** An async store over a MemoryStore: every answer a promise, as Redis gives them. */
function asyncMemory(clock: () => number): AsyncStore {
  const inner = new MemoryStore({ clock });
  return {
    synchronous: false,
    claim: async (key, ttl) => inner.claim(key, ttl),
    claimFor: async (key, ttl, owner) => inner.claimFor(key, ttl, owner),
    increment: async (key, ttl) => inner.increment(key, ttl),
    count: async (key) => inner.count(key),
    delete: async (key) => inner.delete(key),
    close: async () => inner.close(),
  };
}

/** Barcodes of a few cards (so replays and lockouts happen), valid or not in every way the core tells apart. */
function inputs(layout: Layout): fc.Arbitrary<string[]> {
  const card = fc.constantFrom('4000123412341234', '77', 'ABC-123', 'x'.repeat(60), '5', '4000999900001111');
  const session = fc.option(fc.constantFrom('AB12CD34', 'ZZZZ0000', '12345678'), { nil: undefined });
  const one = fc.oneof(
    { weight: 6, arbitrary: fc.tuple(card, session).map(([c, s]) => barcode(layout, c, s)) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(card, session, fc.constantFrom(-1, 1))
        .map(([c, s, d]) => barcode(layout, c, s, NOW + d * STEP)),
    },
    { weight: 2, arbitrary: fc.tuple(card, session).map(([c, s]) => barcode(layout, c, s, NOW, OLD_KEY)) },
    { weight: 3, arbitrary: fc.tuple(card, session).map(([c, s]) => otherDigits(barcode(layout, c, s))) },
    { weight: 1, arbitrary: fc.tuple(card, session).map(([c, s]) => barcode(layout, c, s, NOW + 5 * STEP)) },
    { weight: 1, arbitrary: fc.tuple(card, session).map(([c, s]) => withPassword(barcode(layout, c, s), '1234x678')) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        'XX;77;;12345678',
        'CM;77;AB12;12345678',
        'CM;Ä;;12345678',
        'CM;' + '7'.repeat(1100),
        `CM;77;;${'1'.repeat(8)}\u{1F600}`,
      ),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((s) => `CM;${s}`) },
  );
  // Repeats of earlier items: replays, and retries under a requester.
  return fc
    .array(one, { maxLength: 150 })
    .chain((list) =>
      list.length === 0
        ? fc.constant(list)
        : fc.array(fc.nat(list.length - 1), { maxLength: 20 }).map((picks) => [...list, ...picks.map((i) => list[i]!)]),
    );
}

function pair<R>(config: VerifierConfig): [Verifier<R>, Verifier<R>] {
  return [createVerifier(config) as Verifier<R>, createVerifier(config) as Verifier<R>];
}

for (const backend of BACKENDS) {
  for (const scheme of SCHEMES) {
    describe(`barcodeVerifyBatch (${backend}, ${scheme})`, () => {
      const layout: Layout = { scheme };
      const config = {
        ...BASE_CONFIG,
        scheme,
        backend,
        clock: () => NOW,
        previousKeys: [OLD_KEY],
        lockout: { maxFailures: 3, coolDownSeconds: 60 },
      } as VerifierConfig;

      it(
        'answers as barcodeVerify one after the other when the batch mixes valid, invalid, replayed and locked ' +
          'barcodes',
        () => {
          fc.assert(
            fc.property(inputs(layout), fc.constantFrom(undefined, 'till-1'), (list, requester) => {
              const [batch, single] = pair<BarcodeVerification>(config);
              const options = requester === undefined ? undefined : { requester };
              const expected = list.map((code) => single.barcodeVerify(code, options));
              expect(batch.barcodeVerifyBatch(list, options)).toEqual(expected);
              void batch.close();
              void single.close();
            }),
            { numRuns: RUNS },
          );
        },
      );

      it('answers as barcodeVerify one after the other over an async store', async () => {
        await fc.assert(
          fc.asyncProperty(inputs(layout), async (list) => {
            const [batch, single] = [
              createVerifier({ ...config, replay: asyncMemory(() => NOW) }),
              createVerifier({ ...config, replay: asyncMemory(() => NOW) }),
            ];
            const expected = await Promise.all(list.map((code) => single.barcodeVerify(code)));
            const answers = batch.barcodeVerifyBatch(list);
            expect(answers).toBeInstanceOf(Promise);
            expect(await answers).toEqual(expected);
          }),
          { numRuns: Math.max(10, RUNS / 4) },
        );
      });

      it('answers one promise of the results when the bonus hook answers with one, not an array of them', async () => {
        const hooked = { ...config, bonusAvailable: async (card: string) => card !== '5' };
        const [batch, single] = [createVerifier(hooked), createVerifier(hooked)];
        const list = [barcode(layout, '77', 'AB12CD34'), 'XX;77;;12345678', barcode(layout, '5', undefined)];
        const expected = await Promise.all(list.map((code) => single.barcodeVerify(code)));
        expect(expected.map((a) => a.bonusAvailable)).toEqual([true, undefined, false]);
        const answers = batch.barcodeVerifyBatch(list);
        expect(answers).toBeInstanceOf(Promise);
        expect(await answers).toEqual(expected);
        // No valid password, so no hook asked: the refusals at once, as barcodeVerify answers them.
        const refusals = batch.barcodeVerifyBatch(['XX;77;;12345678', otherDigits(barcode(layout, '77', undefined))]);
        expect(Array.isArray(refusals) && refusals.map((a) => a.reason)).toEqual(['PREFIX_MISMATCH', 'CODE_MISMATCH']);
      });

      it(
        'gives each reason in order when valid, foreign, malformed, wrong, locked and replayed barcodes come ' +
          'together',
        () => {
          const verifier = createVerifier(config) as Verifier;
          const valid = barcode(layout, '77', 'AB12CD34');
          const lockedCard = barcode(layout, '5', undefined);
          const wrong = otherDigits(lockedCard);
          const answers = verifier.barcodeVerifyBatch([
            valid,
            'XX;77;;12345678',
            'CM;77;AB;12345678',
            wrong,
            wrong,
            wrong,
            lockedCard,
            valid,
            barcode(layout, '77', undefined, NOW, OLD_KEY),
            barcode(layout, '4000123412341234', undefined, NOW - STEP),
          ]);
          expect(answers.map((a) => a.reason)).toEqual([
            'OK',
            'PREFIX_MISMATCH',
            'MALFORMED',
            'CODE_MISMATCH',
            'CODE_MISMATCH',
            'CODE_MISMATCH',
            'LOCKED',
            'REPLAYED',
            'OK',
            'OK',
          ]);
          expect(answers[8]).toMatchObject({ keyIndex: 1, driftSteps: 0, cardNumber: '77' });
          expect(answers[9]).toMatchObject({ keyIndex: 0, driftSteps: -1 });
        },
      );

      it('verifies every barcode of a batch larger than one core call, in order', () => {
        const verifier = createVerifier({ ...config, replay: false, lockout: false }) as Verifier;
        const cards = Array.from({ length: 200 }, (_, i) => String(4_000_000_000_000_000 + i * 7919));
        const list = cards.map((c, i) =>
          barcode(layout, c, i % 3 === 0 ? undefined : `S${String(i).padStart(7, '0')}`),
        );
        list[130] = otherDigits(list[130]!);
        const answers = verifier.barcodeVerifyBatch(list);
        expect(answers.map((a) => a.cardNumber)).toEqual(cards);
        expect(answers.filter((a) => a.totpCodeValid).length).toBe(199);
        expect(answers[130]!.reason).toBe('CODE_MISMATCH');
      });

      it('answers the strings before a non-string, then throws a TypeError naming its index', () => {
        const verifier = createVerifier(config) as Verifier;
        const valid = barcode(layout, '77', undefined);
        expect(() => verifier.barcodeVerifyBatch([valid, 42 as unknown as string, valid])).toThrow(
          /fullBarcodes\[1\] must be a string, got number/,
        );
        // The first one was verified (and its password claimed), as a call one after the other would have.
        expect(verifier.barcodeVerify(valid).reason).toBe('REPLAYED');
      });

      it('agrees with barcodeVerify when SHA-1, long cards and long sessions take the scalar path', () => {
        const long: Layout = { scheme, algorythm: 'HMACSHA1', cardSessionLength: 60, passLength: 10 };
        const layoutConfig = { ...config, ...long, replay: false } as VerifierConfig;
        for (const shaLayout of [long, { ...long, algorythm: 'HMACSHA256' as const }]) {
          const [batch, single] = pair<BarcodeVerification>({ ...layoutConfig, ...shaLayout } as VerifierConfig);
          const list = ['9'.repeat(64), '77', 'A-1'].flatMap((c) => [
            barcode(shaLayout, c, 'S'.repeat(60)),
            barcode(shaLayout, c, undefined),
            otherDigits(barcode(shaLayout, c, undefined, NOW, OLD_KEY)),
            barcode(shaLayout, c, 'Q'.repeat(60), NOW, OLD_KEY),
          ]);
          const answers = batch.barcodeVerifyBatch(list);
          expect(answers).toEqual(list.map((code) => single.barcodeVerify(code)));
          expect(answers.filter((a) => a.totpCodeValid).length).toBe(9);
        }
      });
    });
  }
}
