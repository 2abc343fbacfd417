import { describe, expect, it } from 'vitest';
import {
  LOYALTY_API_VERSIONS,
  LOYALTY_ERROR_STATUS,
  ReceiptQrRequest,
  SetFavoritesRequest,
  formatReceiptQr,
  parseReceiptQr,
} from '../../../src/contracts/loyalty/index.js';
import { validationErrors } from '../../../src/contracts/validation-errors.js';
import { loyaltyOpenApiDocument } from '../../../src/routes/loyalty-openapi.js';

const GOOD = 't=20240315T1425&s=1020.00&fn=9289000100242345&i=12345&fp=3826350066&n=1';

function problemsOf(text: string): string[] {
  const parsed = parseReceiptQr(text);
  if (parsed.ok) throw new Error(`expected ${text} to be refused`);
  return parsed.problems;
}

describe('parseReceiptQr', () => {
  it('reads a fiscal receipt QR string into kopecks, a local time and the fiscal numbers', () => {
    expect(parseReceiptQr(GOOD)).toEqual({
      ok: true,
      receipt: {
        time: '2024-03-15T14:25:00',
        sum: 102000,
        fiscalDriveNumber: '9289000100242345',
        documentNumber: 12345,
        fiscalSign: '3826350066',
        operationType: 1,
      },
    });
  });

  it('takes seconds in t, parts in any order, and ignores parts it does not know', () => {
    const parsed = parseReceiptQr('n=3&fp=0042&i=7&fn=0000000000000001&s=0.05&t=20251231T235959&ofd=x');
    expect(parsed).toEqual({
      ok: true,
      receipt: {
        time: '2025-12-31T23:59:59',
        sum: 5,
        fiscalDriveNumber: '0000000000000001',
        documentNumber: 7,
        fiscalSign: '42',
        operationType: 3,
      },
    });
  });

  it.each([
    ['t', GOOD.replace('t=20240315T1425', 't=2024-03-15 14:25'), /^t must be the receipt time/],
    ['t (no such day)', GOOD.replace('t=20240315T1425', 't=20240230T1425'), /^t must be/],
    ["t (25 o'clock)", GOOD.replace('t=20240315T1425', 't=20240315T2525'), /^t must be/],
    ['s (one decimal)', GOOD.replace('s=1020.00', 's=1020.0'), /^s must be the sum in roubles with two decimals/],
    ['s (no decimals)', GOOD.replace('s=1020.00', 's=1020'), /^s must be/],
    ['s (negative)', GOOD.replace('s=1020.00', 's=-1.00'), /^s must be/],
    [
      'fn (15 digits)',
      GOOD.replace('fn=9289000100242345', 'fn=928900010024234'),
      /^fn must be the 16-digit fiscal drive number$/,
    ],
    ['fn (letters)', GOOD.replace('fn=9289000100242345', 'fn=92890001002423AB'), /^fn must be/],
    ['i (zero)', GOOD.replace('i=12345', 'i=0'), /^i must be the fiscal document number/],
    ['i (11 digits)', GOOD.replace('i=12345', 'i=12345678901'), /^i must be/],
    ['fp (11 digits)', GOOD.replace('fp=3826350066', 'fp=38263500661'), /^fp must be the fiscal sign, 1 to 10 digits$/],
    ['n (5)', GOOD.replace(/&n=1$/, '&n=5'), /^n must be the operation type 1 to 4/],
  ])('refuses a bad %s with its own message', (_what, text, message) => {
    const problems = problemsOf(text);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
  });

  it('names every bad or missing part at once, and repeated parts', () => {
    expect(problemsOf('t=x&s=1&fn=1&i=a&fp=b&n=9')).toEqual([
      expect.stringMatching(/^t must/),
      expect.stringMatching(/^s must/),
      expect.stringMatching(/^fn must/),
      expect.stringMatching(/^i must/),
      expect.stringMatching(/^fp must/),
      expect.stringMatching(/^n must/),
    ]);
    expect(problemsOf('t=20240315T1425&s=1.00')).toEqual([
      'fn is missing',
      'i is missing',
      'fp is missing',
      'n is missing',
    ]);
    expect(problemsOf(`${GOOD}&n=2`)).toEqual(['n must appear once']);
  });

  it('refuses text that is not key=value parts, an empty string and an overlong one', () => {
    expect(problemsOf('hello')[0]).toMatch(/^must be key=value parts/);
    expect(problemsOf('')).toEqual(['must not be empty']);
    expect(problemsOf(`${GOOD}&x=${'a'.repeat(600)}`)).toEqual(['must be at most 512 characters']);
  });

  it('formatReceiptQr writes what parseReceiptQr reads', () => {
    const parsed = parseReceiptQr(GOOD);
    if (!parsed.ok) throw new Error('unreachable');
    expect(parseReceiptQr(formatReceiptQr(parsed.receipt))).toEqual(parsed);
  });
});

describe('Loyalty API schemas', () => {
  it('puts each bad QR part on its own qrCode line, as the server answers it', () => {
    const result = ReceiptQrRequest.safeParse({
      cardNumber: '2990000000000001',
      qrCode: GOOD.replace('fn=9289000100242345', 'fn=1').replace(/&n=1$/, '&n=0'),
    });
    expect(result.success).toBe(false);
    expect(validationErrors(result.error!)).toEqual([
      'qrCode: fn must be the 16-digit fiscal drive number',
      'qrCode: n must be the operation type 1 to 4 (1 income, 2 income return, 3 expense, 4 expense return)',
    ]);
  });

  it('refuses a favourites selection that repeats a group or a category', () => {
    const repeatGroup = SetFavoritesRequest.safeParse({
      favorites: [
        { groupId: 'a', categoryIds: [] },
        { groupId: 'a', categoryIds: [] },
      ],
    });
    expect(validationErrors(repeatGroup.error!)).toEqual(['favorites: must not repeat a group']);
    const repeatCategory = SetFavoritesRequest.safeParse({ favorites: [{ groupId: 'a', categoryIds: ['x', 'x'] }] });
    expect(validationErrors(repeatCategory.error!)).toEqual(['favorites.0.categoryIds: must not repeat a category']);
  });

  it('documents 400 for unknown categories and too many favourites, 404 for an unknown card', () => {
    expect(LOYALTY_ERROR_STATUS).toMatchObject({
      UNKNOWN_CATEGORY: 400,
      TOO_MANY_FAVORITES: 400,
      CARD_NOT_FOUND: 404,
      UNAUTHORIZED: 401,
      BAD_REQUEST: 400,
    });
  });
});

describe('loyaltyOpenApiDocument', () => {
  const doc = loyaltyOpenApiDocument() as {
    openapi: string;
    info: { version: string; description: string; 'x-version-history': unknown };
    paths: Record<
      string,
      Record<string, { operationId: string; security: unknown; responses: Record<string, unknown> }>
    >;
    components: { securitySchemes: Record<string, { scheme: string }>; schemas: Record<string, unknown> };
  };

  it('is OpenAPI 3.1 with the six operations under /v1 (and /metrics), Basic auth and the error envelope', () => {
    expect(doc.openapi).toBe('3.1.0');
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([m, op]) => `${m.toUpperCase()} ${path} ${op.operationId}`),
    );
    expect(operations.sort()).toEqual([
      'GET /metrics metrics',
      'GET /v1/card/{cardNumber}/categories listCategories',
      'GET /v1/card/{cardNumber}/categories/favorite getFavoriteCategories',
      'POST /v1/card/anonymous issueAnonymousCard',
      'POST /v1/card/{cardNumber}/categories/favorite setFavoriteCategories',
      'POST /v1/promo/code sendPromoCode',
      'POST /v1/promo/qrCode sendReceiptQr',
    ]);
    expect(doc.components.securitySchemes.walletBasic?.scheme).toBe('basic');
    expect(doc.components.schemas.Error).toBeDefined();
    expect(doc.paths['/v1/promo/code']!.post!.responses['404']).toBeDefined();
  });

  it('carries the version history of the document section 9 in info', () => {
    expect(doc.info.version).toBe('1.4.0');
    expect(doc.info['x-version-history']).toEqual(LOYALTY_API_VERSIONS);
    expect(LOYALTY_API_VERSIONS.map((v) => `${v.version} ${v.date}`)).toEqual([
      '1.1.0 2023-08-07',
      '1.2.0 2023-12-04',
      '1.3.0 2024-05-22',
      '1.4.0 2025-03-18',
    ]);
    expect(doc.info.description).toContain('| 1.3.0 | 2024-05-22 | Added POST /v1/promo/code |');
  });
});
