import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type FiscalReceipt,
  formatReceiptQr,
  MAX_RECEIPT_QR_LENGTH,
  parseReceiptQr,
} from '../../../../src/contracts/loyalty/receipt-qr.js';

const digits = (min: number, max: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max }).map((d) => d.join(''));

/** Any receipt the format can carry: a calendar time from 2000 on, sums up to 10 digits of roubles. */
const receipt: fc.Arbitrary<FiscalReceipt> = fc.record({
  time: fc
    .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 19)),
  sum: fc.integer({ min: 0, max: 9_999_999_999 * 100 + 99 }),
  fiscalDriveNumber: digits(16, 16),
  documentNumber: fc.integer({ min: 1, max: 9_999_999_999 }),
  fiscalSign: fc.integer({ min: 0, max: 9_999_999_999 }).map(String),
  operationType: fc.constantFrom(1, 2, 3, 4) as fc.Arbitrary<FiscalReceipt['operationType']>,
});

/** The parts of a QR string, shuffled, some registers' extra parts mixed in. */
const shuffledWithExtras = receipt.chain((r) =>
  fc.tuple(
    fc.constant(r),
    fc.shuffledSubarray(formatReceiptQr(r).split('&'), { minLength: 6, maxLength: 6 }),
    fc.array(
      fc
        .tuple(fc.constantFrom('kkt', 'x', 'rn', 'ext'), fc.stringMatching(/^[A-Za-z0-9]{0,8}$/))
        .map(([k, v]) => `${k}=${v}`),
      { maxLength: 3 },
    ),
  ),
);

describe('parseReceiptQr', () => {
  it('parses the documented example', () => {
    expect(parseReceiptQr('t=20240315T1425&s=1020.00&fn=9289000100242345&i=12345&fp=3826350066&n=1')).toEqual({
      ok: true,
      receipt: {
        time: '2024-03-15T14:25:00',
        sum: 102_000,
        fiscalDriveNumber: '9289000100242345',
        documentNumber: 12345,
        fiscalSign: '3826350066',
        operationType: 1,
      },
    });
  });

  it('gives back every receipt formatReceiptQr wrote (round trip)', () => {
    fc.assert(
      fc.property(receipt, (r) => {
        expect(parseReceiptQr(formatReceiptQr(r))).toEqual({ ok: true, receipt: r });
      }),
      { numRuns: 500 },
    );
  });

  it('takes the parts in any order and ignores parts it does not know', () => {
    fc.assert(
      fc.property(shuffledWithExtras, ([r, parts, extras]) => {
        const text = [...parts, ...extras].join('&');
        expect(parseReceiptQr(text)).toEqual({ ok: true, receipt: r });
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on any string, and refuses with at least one problem when it does not accept', () => {
    const anyText = fc.oneof(
      fc.string({ unit: 'binary', maxLength: MAX_RECEIPT_QR_LENGTH + 8 }),
      // Near misses: valid strings with one character changed, dropped or doubled.
      receipt
        .map(formatReceiptQr)
        .chain((qr) =>
          fc
            .tuple(fc.constant(qr), fc.nat({ max: qr.length - 1 }), fc.string({ maxLength: 2 }))
            .map(([text, at, put]) => text.slice(0, at) + put + text.slice(at + 1)),
        ),
    );
    fc.assert(
      fc.property(anyText, (text) => {
        const parsed = parseReceiptQr(text);
        if (parsed.ok) {
          // Anything accepted is a receipt that writes back to a string that parses to the same receipt.
          expect(parseReceiptQr(formatReceiptQr(parsed.receipt))).toEqual(parsed);
        } else {
          expect(parsed.problems.length).toBeGreaterThan(0);
          for (const problem of parsed.problems) expect(typeof problem).toBe('string');
        }
      }),
      { numRuns: 1_000 },
    );
  });

  it('refuses an impossible calendar time and says which part is wrong', () => {
    fc.assert(
      fc.property(
        receipt,
        fc.constantFrom(
          '20240231T1200',
          '20230229T0000',
          '20241301T0000',
          '20240101T2400',
          '20240101T1260',
          '19991231T2359',
        ),
        (r, t) => {
          const text = formatReceiptQr(r).replace(/^t=[^&]*/, `t=${t}`);
          const parsed = parseReceiptQr(text);
          expect(parsed.ok).toBe(false);
          expect(!parsed.ok && parsed.problems.every((p) => p.startsWith('t '))).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});
