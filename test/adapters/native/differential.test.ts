// The native addon against the wasm core: the same layouts, keys, times and
// inputs must give the same results, slot for slot, and the same tokens (but
// for the random jti) or the same refusal at the same byte.

import { createHmac } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { flattenedVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { loadNativeBackend } from '../../../adapters/native/index.js';
import type { CoreBackend } from '../../../adapters/core/contract.js';
import { WasmBackend } from '../../../adapters/node/backend.js';
import { resolveConfig, type VerifierConfig } from '../../../adapters/node/config.js';
import { createVerifier, deriveCardKey, generateBarcode, type Verifier } from '../../../src/entries/index.js';
import {
  CARD_CHARS,
  corruptJson,
  malformed,
  randomJson,
  randomLayout,
  randomTime,
  Rng,
  SESSION_CHARS,
  tamper,
} from './generators.js';
import { testClock } from '../../support/clock.js';

const makeNative = loadNativeBackend();
const unavailable = makeNative instanceof Error ? makeNative.message : undefined;
if (unavailable !== undefined) console.log(`native differential tests skipped: ${unavailable}`);

const SEED = Number(process.env.NATIVE_DIFF_SEED ?? 20261122);
const CASES_PER_LAYOUT = 420;
/**
 * Sized by a case count, never by time: 21,000 by default (a few seconds here); `WPK_DIFF_CASES=105000`
 * runs the full 250-layout sweep (opt-in, e.g. before a release). Its own timeout grows with the count.
 */
const CASES = Math.max(CASES_PER_LAYOUT, Number(process.env.WPK_DIFF_CASES ?? 21_000));
const LAYOUTS = Math.ceil(CASES / CASES_PER_LAYOUT);
const CASES_TIMEOUT_MS = Math.max(120_000, LAYOUTS * CASES_PER_LAYOUT * 3);
const encoder = new TextEncoder();

/** The two cores under one layout: as verifiers (what callers see) and as raw backends (codes and slots). */
function pairFor(layout: VerifierConfig) {
  const clock = testClock(0);
  const config = { ...layout, replay: false, lockout: false, clock: clock.now } as VerifierConfig;
  const wasm = createVerifier({ ...config, backend: 'wasm' }) as Verifier;
  const native = createVerifier({ ...config, backend: 'native' }) as Verifier;
  const resolved = resolveConfig(config);
  const rawWasm: CoreBackend = new WasmBackend(resolved);
  const rawNative: CoreBackend = (makeNative as Exclude<typeof makeNative, Error>)(resolved);
  expect(native.backend).toBe('native');
  return { clock, wasm, native, rawWasm, rawNative };
}

type Pair = ReturnType<typeof pairFor>;

function rawVerify(backend: CoreBackend, code: string, now: number): [number, number[]] {
  const result = backend.verify(code, now);
  return [result, Array.from(backend.result.subarray(0, 9))];
}

function describeCase(layout: VerifierConfig, code: string, now: number, a: unknown, b: unknown): string {
  const { key: _key, ...shown } = layout;
  return JSON.stringify({
    layout: shown,
    code: code.length > 200 ? `${code.slice(0, 200)}… (${code.length})` : code,
    now,
    wasm: a,
    native: b,
  });
}

describe.skipIf(unavailable !== undefined)('native core against the wasm core', { timeout: 120_000 }, () => {
  // count-sized runs: a loaded machine stretches them
  it(
    `answers ${LAYOUTS * CASES_PER_LAYOUT} random barcodes identically when layouts, keys, times and inputs vary`,
    () => {
      const rng = new Rng(SEED);
      const mismatches: string[] = [];
      const tally = {
        cases: 0,
        ok: 0,
        prefix: 0,
        malformed: 0,
        mismatch: 0,
        highCounters: 0,
        previousKey: 0,
        cardBound: 0,
      };
      const weirdTimes = [Number.NaN, -1, -0, -Infinity, Infinity, 1e300, 2 ** 64 * 1000, 0.5, 999.999];

      for (let l = 0; l < LAYOUTS; l++) {
        const layout = randomLayout(rng);
        const pair: Pair = pairFor(layout);
        const d = layout.delimeter;
        const check = (code: string, now: number, viaVerifier = true) => {
          tally.cases++;
          const a = rawVerify(pair.rawWasm, code, now);
          const b = rawVerify(pair.rawNative, code, now);
          if (!isDeepStrictEqual(a, b)) mismatches.push(describeCase(layout, code, now, a, b));
          if (a[0] === 0) tally.ok++;
          else if (a[0] === 1) tally.prefix++;
          else if (a[0] === 2) tally.malformed++;
          else tally.mismatch++;
          if (a[0] === 0 && a[1][7]! > 0) tally.highCounters++;
          if (a[0] === 0 && a[1][8]! > 0) tally.previousKey++;
          if (a[0] === 0 && layout.scheme === 'card-bound') tally.cardBound++;
          if (!viaVerifier) return;
          pair.clock.set(now);
          const x = pair.wasm.barcodeVerify(code);
          const y = pair.native.barcodeVerify(code);
          if (!isDeepStrictEqual(x, y)) mismatches.push(describeCase(layout, code, now, x, y));
        };
        const cards: string[] = [];
        const valid = (now: number): string => {
          const cardNumber =
            rng.chance(0.3) && cards.length > 0 ? rng.pick(cards) : rng.string(rng.int(1, 64), CARD_CHARS);
          cards.push(cardNumber);
          const sessionKind = rng.int(0, 2);
          const step = layout.interval * 1000;
          const at = Math.max(0, now + rng.int(-(layout.window + 1), layout.window + 1) * step);
          // Now and then a key a rotation keeps accepting.
          const key = layout.previousKeys.length > 0 && rng.chance(0.3) ? rng.pick(layout.previousKeys) : layout.key;
          const code = generateBarcode({
            ...layout,
            cardNumber,
            at,
            ...(layout.scheme === 'card-bound'
              ? { cardKey: deriveCardKey(key, cardNumber, layout.algorythm) }
              : { key }),
            ...(sessionKind === 0 ? { cardSession: rng.string(layout.cardSessionLength, SESSION_CHARS) } : {}),
          });
          // sessionKind 1: the empty session field; 2: the three-part form.
          return sessionKind === 2 ? code.replace(`${d}${d}`, d) : code;
        };

        let previous = valid(randomTime(rng, layout.interval));
        for (let c = 0; c < CASES_PER_LAYOUT; c++) {
          const now = randomTime(rng, layout.interval);
          const kind = rng.next();
          if (kind < 0.35) {
            previous = valid(now);
            check(previous, now);
          } else if (kind < 0.65) {
            const code = valid(now);
            check(tamper(rng, code, previous, d), now);
            previous = code;
          } else if (kind < 0.93) {
            check(malformed(rng, layout), now);
          } else {
            // Clocks the verifier refuses still reach the backend the same way in both cores.
            check(valid(now), rng.pick(weirdTimes), false);
          }
        }
        if (mismatches.length > 20) break;
      }

      expect(mismatches.slice(0, 5)).toEqual([]);
      if (process.env.NATIVE_DIFF_TALLY) console.log(tally);
      expect(tally.cases).toBeGreaterThanOrEqual(LAYOUTS * CASES_PER_LAYOUT);
      // The mix reaches every outcome, counters past 2^32 included (over 1% of the cases each).
      for (const outcome of [
        'ok',
        'prefix',
        'malformed',
        'mismatch',
        'highCounters',
        'previousKey',
        'cardBound',
      ] as const) {
        expect(tally[outcome], outcome).toBeGreaterThan(tally.cases / 100);
      }
    },
    CASES_TIMEOUT_MS,
  );

  it('fills the same slots when a long or unicode barcode is cut at the wasm buffer size', () => {
    const pair = pairFor({
      algorythm: 'HMACSHA256',
      passLength: 8,
      prefix: 'CM',
      key: '00'.repeat(32),
      interval: 30,
      cardSessionLength: 8,
      delimeter: ';',
    });
    const mismatches: string[] = [];
    let cases = 0;
    for (const tail of ['é', '€', '😀', '\ud800', '\udc00', ';', '1']) {
      for (let bytes = 1012; bytes <= 1032; bytes++) {
        for (const head of ['CM;', 'CM;123;', 'CM;123;AB12CD34;', 'CM', 'XX;']) {
          let code = head;
          while (Buffer.byteLength(code) + Buffer.byteLength(tail) <= bytes) code += head.length % 2 === 0 ? 'A' : '9';
          code += tail + (bytes % 3 === 0 ? tail : '');
          cases++;
          const a = rawVerify(pair.rawWasm, code, 1e12);
          const b = rawVerify(pair.rawNative, code, 1e12);
          if (!isDeepStrictEqual(a, b)) mismatches.push(describeCase({} as VerifierConfig, code, 1e12, a, b));
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(cases).toBeGreaterThan(500);
  });

  describe('tokens', () => {
    const rng = new Rng(SEED + 1);
    const layouts = Array.from({ length: 12 }, () => randomLayout(rng));

    function tokenKey(partnerKeyHex: string): Uint8Array {
      return createHmac('sha256', Buffer.from(partnerKeyHex, 'hex')).update('token').digest();
    }

    function header(token: string): Record<string, unknown> {
      return JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8')) as Record<string, unknown>;
    }

    async function joseAccepts(token: string, body: string | Uint8Array, key: Uint8Array): Promise<boolean> {
      const [protectedHeader, payload, signature] = token.split('.');
      if (payload !== '') return false;
      try {
        await flattenedVerify(
          {
            protected: protectedHeader!,
            payload: typeof body === 'string' ? encoder.encode(body) : body,
            signature: signature!,
          },
          key,
        );
        return true;
      } catch {
        return false;
      }
    }

    /** Signs `body` with both cores; both refuse at the same byte or both sign with equal headers. */
    function compareSign(pair: Pair, body: string, iat: number, mismatches: string[]): string | undefined {
      const a = pair.rawWasm.sign(body, iat);
      const b = pair.rawNative.sign(body, iat);
      if (typeof a === 'number' || typeof b === 'number') {
        if (a !== b)
          mismatches.push(
            JSON.stringify({
              body: body.slice(0, 120),
              length: body.length,
              wasm: a,
              native: typeof b === 'number' ? b : 'token',
            }),
          );
        return undefined;
      }
      const [ha, hb] = [header(a), header(b)];
      if (!/^[A-Za-z0-9_-]{22}$/.test(String(hb.jti)) || !isDeepStrictEqual({ ...ha, jti: 0 }, { ...hb, jti: 0 })) {
        mismatches.push(JSON.stringify({ wasm: ha, native: hb }));
      }
      return b;
    }

    it('refuses the same bodies at the same byte and signs the same headers when bodies are random', async () => {
      const mismatches: string[] = [];
      const signed: Array<[token: string, body: string, key: Uint8Array]> = [];
      let accepted = 0;
      let refused = 0;
      for (const layout of layouts) {
        const pair = pairFor(layout);
        const key = tokenKey(layout.key);
        for (let i = 0; i < 400; i++) {
          const json = randomJson(rng, 0, rng.int(0, 6));
          const body = rng.chance(0.5) ? json : corruptJson(rng, json);
          const iat = rng.chance(0.9) ? rng.int(0, 2 ** 40) : rng.pick([Number.NaN, -5, 1e30, Infinity, 2 ** 64, 0.7]);
          const token = compareSign(pair, body, iat, mismatches);
          if (token === undefined) refused++;
          else {
            accepted++;
            if (i % 4 === 0) signed.push([token, body, key]);
          }
        }
      }
      expect(mismatches.slice(0, 5)).toEqual([]);
      expect(accepted).toBeGreaterThan(1000);
      expect(refused).toBeGreaterThan(1000);
      for (const [token, body, key] of signed) {
        expect(await joseAccepts(token, body, key), body).toBe(true);
        const other = encoder.encode(body);
        const tampered =
          other.length === 0
            ? encoder.encode(' ')
            : other.map((byte, index) => (index === other.length >> 1 ? byte ^ 1 : byte));
        expect(await joseAccepts(token, tampered, key)).toBe(false);
      }
    });

    it('refuses at the same byte when the text is any short string of grammar characters, alone or nested', () => {
      const pair = pairFor(layouts[2]!);
      const alphabet = ['{', '}', '[', ']', '"', ',', ':', '0', '1', '-', '.', 'e', '+', '\\', ' ', 'u', 't'];
      const mismatches: string[] = [];
      let cases = 0;
      const visit = (text: string, length: number) => {
        for (const body of [text, `[${text}]`, `{"k":${text}}`, `["${text}"]`]) {
          cases++;
          compareSign(pair, body, 1, mismatches);
        }
        if (length < 4) for (const c of alphabet) visit(text + c, length + 1);
      };
      visit('', 0);
      expect(mismatches.slice(0, 5)).toEqual([]);
      expect(cases).toBeGreaterThan(300_000);
    });

    it('agrees when bodies pass 64 KiB, nest deeply or put multi-byte text astride chunk ends', async () => {
      const layout = layouts[0]!;
      const pair = pairFor(layout);
      const key = tokenKey(layout.key);
      const rows = JSON.stringify({
        rows: Array.from({ length: 6000 }, (_, i) => ({
          id: i,
          name: `строка-${i} 😀`,
          ok: i % 2 === 0,
          v: i * 1.5e-3,
        })),
      });
      const straddle = JSON.stringify('a'.repeat(65_534) + '€😀'.repeat(20_000));
      const wide = JSON.stringify(Array.from({ length: 30_000 }, (_, i) => (i % 3 === 0 ? -i : `${i}\\"\u0007`)));
      const bodies = [
        rows,
        straddle,
        wide,
        ` ${rows}\n`,
        '['.repeat(1024) + ']'.repeat(1024),
        '['.repeat(1025) + ']'.repeat(1025),
        '{"a":'.repeat(1023) + '1' + '}'.repeat(1023),
        '{"a":'.repeat(1025) + '1' + '}'.repeat(1025),
        `[${'1,'.repeat(40_000)}1]`,
        `"${'\\u00e9'.repeat(20_000)}"`,
        `${'9'.repeat(70_000)}`,
      ];
      for (const base of [rows, straddle, wide]) {
        for (let i = 0; i < 12; i++) {
          const at = i < 6 ? rng.int(65_000, base.length - 1) : rng.int(0, base.length - 1);
          bodies.push(
            base.slice(0, at) + rng.pick(['\u0001', 'x', '}', ']', '"', ',', '\\q']) + base.slice(at),
            base.slice(0, at),
          );
        }
      }
      // Past 256 Ki UTF-16 units the addon has V8 encode the body; below, it transcodes it itself: both paths run here.
      expect(bodies.filter((body) => body.length > 262_144).length).toBeGreaterThan(5);
      expect(bodies.filter((body) => body.length > 65_536 && body.length <= 262_144).length).toBeGreaterThan(5);
      const mismatches: string[] = [];
      let big = 0;
      for (const body of bodies) {
        if (encoder.encode(body).length > 65_536) big++;
        const token = compareSign(pair, body, 1_795_000_000, mismatches);
        if (token !== undefined) {
          expect(await joseAccepts(token, body, key)).toBe(true);
          expect(await joseAccepts(token, `${body} `, key)).toBe(false);
        }
      }
      expect(mismatches).toEqual([]);
      expect(big).toBeGreaterThan(40);
    });

    it('signs through the verifier with an escaped kid when the partner id holds quotes and backslashes', async () => {
      const partnerId = 'shop"north"\\7';
      const layout = { ...layouts[1]!, partnerId };
      const verifier = createVerifier({ ...layout, backend: 'native', clock: () => 1_795_000_000_123 });
      const body = '{"requestId":"r-1","totalAmount":1000}';
      const token = verifier.getToken(body);
      expect(header(token)).toEqual({
        alg: 'HS256',
        b64: false,
        crit: ['b64'],
        iat: 1_795_000_000,
        jti: expect.any(String),
        kid: partnerId,
      });
      expect(await joseAccepts(token, body, tokenKey(layout.key))).toBe(true);
      expect(() => verifier.getToken('{"requestId":')).toThrow(
        expect.objectContaining({ code: 'REQUEST_DATA_INVALID' }),
      );
      await verifier.close();
    });
  });
});
