import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHttp, type HttpServerHandle } from '../../../adapters/http-server/serve.js';
import type { Database } from '../../../src/db/index.js';
import { basicAuthHeader } from '../../../src/net/basic-auth.js';
import { createVerifier, demoConfig, deriveCardKey, generateBarcode } from '../../../src/entries/index.js';
import {
  createLoyaltyClient,
  formatReceiptQr,
  LoyaltyError,
  type LoyaltyClient,
} from '../../../src/entries/loyalty.js';
import { createLoyaltyProgram, type LoyaltyProgram } from '../../../src/loyalty-program/program.js';
import { luhnValid } from '../../../src/loyalty-program/card-number.js';
import { seedDemoProgram } from '../../../src/loyalty-program/demo.js';
import { databaseCases } from '../../support/databases.js';
import { testClock } from '../../support/clock.js';

const V = demoConfig.verifier;
const CREDENTIALS = { login: 'wallet', password: 'wallet-password-1' };
const DAY = 24 * 3600 * 1000;
const START = Date.UTC(2026, 10, 23, 12, 0, 0);

let fiscalCounter = 0;
/** A purchase receipt with numbers no other test uses. */
function receipt(
  now: number,
  overrides: {
    sum?: number;
    operationType?: 1 | 2 | 3 | 4;
    fiscalSign?: string;
    documentNumber?: number;
    time?: string;
  } = {},
) {
  fiscalCounter += 1;
  return formatReceiptQr({
    time: overrides.time ?? new Date(now - 3600_000).toISOString().slice(0, 19),
    sum: overrides.sum ?? 123_456,
    fiscalDriveNumber: '9289000100242345',
    documentNumber: overrides.documentNumber ?? 100_000 + fiscalCounter,
    fiscalSign: overrides.fiscalSign ?? String(3_000_000_000 + fiscalCounter),
    operationType: overrides.operationType ?? 1,
  });
}

async function refusal(
  promise: Promise<unknown>,
): Promise<{ code: string; httpStatus: number; errors: readonly string[] }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof LoyaltyError)) throw new Error(`expected a LoyaltyError, got ${String(error)}`);
  return { code: error.code, httpStatus: error.httpStatus, errors: error.errors };
}

describe.each(databaseCases('the default Loyalty implementation'))(
  'default Loyalty implementation on $name',
  ({ open }) => {
    const time = testClock(START);
    let db: Database;
    let program: LoyaltyProgram;
    let http: HttpServerHandle;
    let loyalty: LoyaltyClient;
    const newCard = async () => loyalty.issueAnonymousCard(`req-${Math.random().toString(36).slice(2)}`);

    beforeAll(async () => {
      db = await open();
      program = await createLoyaltyProgram(db, { partnerKey: V.key, credentials: CREDENTIALS, clock: time.now });
      await seedDemoProgram(program.store, time.now());
      await seedDemoProgram(program.store, time.now()); // idempotent
      http = await serveHttp(program.app, { port: 0 });
      loyalty = createLoyaltyClient({ baseUrl: http.url, ...CREDENTIALS });
    });
    afterAll(async () => {
      await http?.close();
      await db?.close();
    });

    describe('issueAnonymousCard', () => {
      it(
        'issues a Luhn-valid card without a cardKey under rfc6238 (the default), whose partner-key barcode the ' +
          'core verifies',
        async () => {
          const card = await loyalty.issueAnonymousCard('issue-rfc6238');
          expect(card).toEqual({ cardNumber: expect.stringMatching(/^2990\d{12}$/) });
          expect(luhnValid(card.cardNumber)).toBe(true);
          const verifier = createVerifier({ ...V, scheme: 'rfc6238', replay: false });
          expect(
            verifier.barcodeVerify(generateBarcode({ ...V, scheme: 'rfc6238', cardNumber: card.cardNumber })).reason,
          ).toBe('OK');
        },
      );

      it(
        'issues a card whose key draws a barcode the core verifies as CARDSESSION_NOT_AVAILABLE when the program ' +
          'is card-bound',
        async () => {
          const cardBound = await createLoyaltyProgram(db, {
            partnerKey: V.key,
            credentials: CREDENTIALS,
            clock: time.now,
            scheme: 'card-bound',
          });
          const card = await cardBound.handlers.issueAnonymousCard({ requestId: 'issue-1' }, {} as never);
          expect(card.cardNumber).toMatch(/^2990\d{12}$/);
          expect(luhnValid(card.cardNumber)).toBe(true);
          expect(card.cardKey).toBe(deriveCardKey(V.key, card.cardNumber, V.algorythm));
          const verifier = createVerifier({ ...V, scheme: 'card-bound', replay: false });
          const fullBarcode = generateBarcode({
            ...V,
            scheme: 'card-bound',
            cardNumber: card.cardNumber,
            cardKey: card.cardKey,
          });
          expect(verifier.barcodeVerify(fullBarcode)).toMatchObject({
            resultCode: 'CARDSESSION_NOT_AVAILABLE',
            totpCodeValid: true,
            cardNumber: card.cardNumber,
            cardSession: null,
          });
          const withSession = generateBarcode({
            ...V,
            scheme: 'card-bound',
            cardNumber: card.cardNumber,
            cardKey: card.cardKey,
            cardSession: 'AB12CD34',
          });
          expect(verifier.barcodeVerify(withSession).resultCode).toBe('CARDSESSION_AVAILABLE');
          expect((await program.store.card(card.cardNumber))?.balance).toBe(0);
        },
      );

      it(
        'gives the same card for the same requestId, also to concurrent calls, and another card for another ' +
          'requestId',
        async () => {
          const answers = await Promise.all(
            Array.from({ length: 8 }, () => loyalty.issueAnonymousCard('issue-concurrent')),
          );
          expect(new Set(answers.map((a) => a.cardNumber)).size).toBe(1);
          expect(await loyalty.issueAnonymousCard('issue-concurrent')).toEqual(answers[0]);
          expect((await loyalty.issueAnonymousCard('issue-other')).cardNumber).not.toBe(answers[0]!.cardNumber);
        },
      );

      it(
        'keeps one card per requestId in the store itself: concurrent issues ' + 'through two servers on one database',
        async () => {
          const second = await createLoyaltyProgram(db, {
            partnerKey: V.key,
            credentials: CREDENTIALS,
            clock: time.now,
          });
          const secondHttp = await serveHttp(second.app, { port: 0 });
          try {
            const other = createLoyaltyClient({ baseUrl: secondHttp.url, ...CREDENTIALS });
            const answers = await Promise.all(
              Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? loyalty : other).issueAnonymousCard('two-servers')),
            );
            expect(new Set(answers.map((a) => a.cardNumber)).size).toBe(1);
            const direct = await Promise.all(
              Array.from({ length: 6 }, () =>
                program.store.issueCard(
                  'store-direct',
                  () => `X${Math.random().toString().slice(2, 14)}`,
                  new Date(time.now()),
                ),
              ),
            );
            expect(new Set(direct.map((d) => d.cardNumber)).size).toBe(1);
            expect(direct.filter((d) => d.created)).toHaveLength(1);
            const { rows } = await db.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM loyalty_cards WHERE request_id IN ('two-servers', 'store-direct')",
            );
            expect(rows[0]!.n).toBe(2);
          } finally {
            await secondHttp.close();
          }
        },
      );
    });

    describe('categories and favourites', () => {
      it('lists the groups with maxSelected, and 404 CARD_NOT_FOUND for an unknown card', async () => {
        const card = await newCard();
        const { groups } = await loyalty.listCategories(card.cardNumber);
        expect(groups.map((g) => [g.groupId, g.maxSelected, g.categories.length])).toEqual([
          ['products', 3, 6],
          ['cashback', 1, 3],
        ]);
        expect(await refusal(loyalty.listCategories('29900000000000000'))).toEqual({
          code: 'CARD_NOT_FOUND',
          httpStatus: 404,
          errors: ['cardNumber: no such card'],
        });
      });

      it('stores a selection, answers it, replaces it whole, and reads it back', async () => {
        const { cardNumber } = await newCard();
        expect(await loyalty.getFavoriteCategories(cardNumber)).toEqual({ favorites: [] });
        const stored = await loyalty.setFavoriteCategories(cardNumber, [
          { groupId: 'cashback', categoryIds: ['cafe'] },
          { groupId: 'products', categoryIds: ['meat', 'dairy'] },
        ]);
        // In list order: groups by position, categories as listed.
        const expected = [
          { groupId: 'products', categoryIds: ['dairy', 'meat'] },
          { groupId: 'cashback', categoryIds: ['cafe'] },
        ];
        expect(stored.favorites).toEqual(expected);
        expect((await loyalty.getFavoriteCategories(cardNumber)).favorites).toEqual(expected);
        expect(
          (await loyalty.setFavoriteCategories(cardNumber, [{ groupId: 'products', categoryIds: ['fish'] }])).favorites,
        ).toEqual([{ groupId: 'products', categoryIds: ['fish'] }]);
        expect((await loyalty.setFavoriteCategories(cardNumber, [])).favorites).toEqual([]);
      });

      it(
        'refuses unknown categories and groups (400 UNKNOWN_CATEGORY) and too many (400 TOO_MANY_FAVORITES), ' +
          'storing nothing',
        async () => {
          const { cardNumber } = await newCard();
          await loyalty.setFavoriteCategories(cardNumber, [{ groupId: 'products', categoryIds: ['bakery'] }]);
          expect(
            await refusal(
              loyalty.setFavoriteCategories(cardNumber, [
                { groupId: 'products', categoryIds: ['dairy', 'caviar'] },
                { groupId: 'cars', categoryIds: [] },
              ]),
            ),
          ).toEqual({
            code: 'UNKNOWN_CATEGORY',
            httpStatus: 400,
            errors: [
              "favorites.0.categoryIds.1: no such category 'caviar' in group 'products'",
              "favorites.1.groupId: no such group 'cars'",
            ],
          });
          expect(
            await refusal(
              loyalty.setFavoriteCategories(cardNumber, [
                { groupId: 'products', categoryIds: ['dairy'] },
                { groupId: 'cashback', categoryIds: ['cafe', 'pharmacy'] },
              ]),
            ),
          ).toEqual({
            code: 'TOO_MANY_FAVORITES',
            httpStatus: 400,
            errors: ["favorites.1.categoryIds: at most 1 may be chosen in group 'cashback'"],
          });
          expect((await loyalty.getFavoriteCategories(cardNumber)).favorites).toEqual([
            { groupId: 'products', categoryIds: ['bakery'] },
          ]);
        },
      );

      it('answers 404 CARD_NOT_FOUND for favourites of an unknown card', async () => {
        expect((await refusal(loyalty.getFavoriteCategories('NO-SUCH-CARD'))).code).toBe('CARD_NOT_FOUND');
        expect((await refusal(loyalty.setFavoriteCategories('NO-SUCH-CARD', []))).httpStatus).toBe(404);
      });
    });

    describe('promo codes', () => {
      it('applies a code once per card (typed any case, spaces around) and credits its bonus', async () => {
        const { cardNumber } = await newCard();
        expect(await loyalty.sendPromoCode(cardNumber, '  welcome100 ')).toEqual({
          result: 'APPLIED',
          bonusAmount: 10_000,
          message: 'Promo code applied: 100.00 bonus credited.',
        });
        expect(await loyalty.sendPromoCode(cardNumber, 'WELCOME100')).toMatchObject({ result: 'ALREADY_USED' });
        expect((await program.store.card(cardNumber))?.balance).toBe(10_000);
        expect((await loyalty.sendPromoCode((await newCard()).cardNumber, 'WELCOME100')).result).toBe('APPLIED');
      });

      it('answers INVALID for an unknown code, EXPIRED past the end, and keeps the balance', async () => {
        const { cardNumber } = await newCard();
        expect(await loyalty.sendPromoCode(cardNumber, 'NO-SUCH-CODE')).toEqual({
          result: 'INVALID',
          message: 'There is no such promo code.',
        });
        expect(await loyalty.sendPromoCode(cardNumber, 'EXPIRED2024')).toEqual({
          result: 'EXPIRED',
          message: 'This promo code has expired.',
        });
        const saved = time.now();
        try {
          time.set(START + 8 * DAY);
          expect((await loyalty.sendPromoCode(cardNumber, 'WEEK50')).result).toBe('EXPIRED');
        } finally {
          time.set(saved);
        }
        expect((await loyalty.sendPromoCode(cardNumber, 'WEEK50')).result).toBe('APPLIED');
        expect((await program.store.card(cardNumber))?.balance).toBe(5_000);
      });

      it('lets a single-use code be used once in all, even by concurrent cards', async () => {
        await program.store.putPromoCode({ code: 'race1', bonusAmount: 700, maxRedemptions: 1 });
        const cards = await Promise.all(Array.from({ length: 5 }, () => newCard()));
        const results = await Promise.all(cards.map((c) => loyalty.sendPromoCode(c.cardNumber, 'RACE1')));
        expect(results.map((r) => r.result).sort()).toEqual([
          'ALREADY_USED',
          'ALREADY_USED',
          'ALREADY_USED',
          'ALREADY_USED',
          'APPLIED',
        ]);
        const balances = await Promise.all(cards.map((c) => program.store.card(c.cardNumber)));
        expect(balances.map((b) => b?.balance).sort()).toEqual([0, 0, 0, 0, 700]);
      });

      it('answers 404 CARD_NOT_FOUND for an unknown card, and 400 for an empty code', async () => {
        expect((await refusal(loyalty.sendPromoCode('NO-SUCH-CARD', 'WELCOME100'))).code).toBe('CARD_NOT_FOUND');
        expect(await refusal(loyalty.sendPromoCode('NO-SUCH-CARD', ' '))).toEqual({
          code: 'BAD_REQUEST',
          httpStatus: 400,
          errors: ['code: must not be empty'],
        });
      });
    });

    describe('receipts', () => {
      it(
        'accepts a purchase receipt once with 1% of its sum (rounded down) as bonus; again, from any card, ' +
          'DUPLICATE',
        async () => {
          const { cardNumber } = await newCard();
          const qr = receipt(time.now(), { sum: 123_456 });
          expect(await loyalty.sendReceiptQr(cardNumber, qr)).toEqual({
            result: 'ACCEPTED',
            bonusAmount: 1234,
            message: 'Receipt accepted: 12.34 bonus credited.',
          });
          expect(await loyalty.sendReceiptQr(cardNumber, qr)).toMatchObject({ result: 'DUPLICATE' });
          expect((await loyalty.sendReceiptQr((await newCard()).cardNumber, qr)).result).toBe('DUPLICATE');
          expect((await program.store.card(cardNumber))?.balance).toBe(1234);
        },
      );

      it(
        'answers INVALID, recording nothing, for a return, a receipt too old or from the future, or a forged ' +
          'fiscal sign',
        async () => {
          const { cardNumber } = await newCard();
          const refund = receipt(time.now(), { operationType: 2 });
          expect(await loyalty.sendReceiptQr(cardNumber, refund)).toEqual({
            result: 'INVALID',
            message: 'Only purchase receipts (n=1) earn bonuses.',
          });
          expect(
            (
              await loyalty.sendReceiptQr(
                cardNumber,
                receipt(time.now(), { time: new Date(time.now() - 32 * DAY).toISOString().slice(0, 19) }),
              )
            ).message,
          ).toBe('The receipt is older than 30 days.');
          expect(
            (
              await loyalty.sendReceiptQr(
                cardNumber,
                receipt(time.now(), { time: new Date(time.now() + 2 * DAY).toISOString().slice(0, 19) }),
              )
            ).message,
          ).toBe('The receipt is dated in the future.');
          const genuine = receipt(time.now(), { documentNumber: 777_001, fiscalSign: '1111111111' });
          expect((await loyalty.sendReceiptQr(cardNumber, genuine)).result).toBe('ACCEPTED');
          const forged = receipt(time.now(), { documentNumber: 777_001, fiscalSign: '2222222222' });
          expect(await loyalty.sendReceiptQr(cardNumber, forged)).toEqual({
            result: 'INVALID',
            message: 'The fiscal sign does not match the registered receipt.',
          });
          const { rows } = await db.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM loyalty_receipts WHERE card_number = $1',
            [cardNumber],
          );
          expect(rows[0]!.n).toBe(1);
        },
      );

      it('answers 404 for an unknown card, and 400 naming each malformed QR part', async () => {
        expect((await refusal(loyalty.sendReceiptQr('NO-SUCH-CARD', receipt(time.now())))).code).toBe('CARD_NOT_FOUND');
        expect(
          (await refusal(loyalty.sendReceiptQr('NO-SUCH-CARD', receipt(time.now(), { operationType: 3 })))).code,
        ).toBe('CARD_NOT_FOUND');
        const { cardNumber } = await newCard();
        const bad = await refusal(
          loyalty.sendReceiptQr(cardNumber, 't=20261123T1200&s=12,00&fn=9289000100242345&i=1&fp=12345678901&n=1'),
        );
        expect(bad).toEqual({
          code: 'BAD_REQUEST',
          httpStatus: 400,
          errors: [
            'qrCode: s must be the sum in roubles with two decimals, e.g. 1020.00',
            'qrCode: fp must be the fiscal sign, 1 to 10 digits',
          ],
        });
      });
    });

    it('answers 503 SERVICE_UNAVAILABLE, not 500, while the database cannot be reached, and recovers', async () => {
      // The network edge we do not own: a database whose connection is refused for a while.
      let down = false;
      const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      const flaky: Database = {
        ...db,
        kind: db.kind,
        query: (sql, params) => (down ? Promise.reject(refused()) : db.query(sql, params)),
        transaction: (fn) => (down ? Promise.reject(refused()) : db.transaction(fn)),
      };
      const shaky = await createLoyaltyProgram(flaky, { partnerKey: V.key, credentials: CREDENTIALS, clock: time.now });
      const shakyHttp = await serveHttp(shaky.app, { port: 0 });
      try {
        const client = createLoyaltyClient({ baseUrl: shakyHttp.url, ...CREDENTIALS });
        const { cardNumber } = await client.issueAnonymousCard('flaky-1');
        down = true;
        expect(await refusal(client.sendPromoCode(cardNumber, 'WELCOME100'))).toEqual({
          code: 'SERVICE_UNAVAILABLE',
          httpStatus: 503,
          errors: ['The loyalty store is unavailable; retry later'],
        });
        expect((await refusal(client.issueAnonymousCard('flaky-2'))).code).toBe('SERVICE_UNAVAILABLE');
        down = false;
        expect((await client.listCategories(cardNumber)).groups).toHaveLength(2);
      } finally {
        await shakyHttp.close();
      }
    });

    it('refuses a caller without the Basic credentials (401), whatever the route', async () => {
      const card = await newCard();
      for (const [method, path] of [
        ['GET', `/v1/card/${card.cardNumber}/categories`],
        ['POST', '/v1/promo/code'],
        ['POST', '/v1/card/anonymous'],
      ] as const) {
        const res = await fetch(`${http.url}${path}`, {
          method,
          headers: { authorization: basicAuthHeader('wallet', 'nope'), 'content-type': 'application/json' },
          body: method === 'POST' ? '{}' : undefined,
        });
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(/^Basic/);
      }
    });
  },
);
