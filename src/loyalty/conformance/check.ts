import { randomBytes, randomInt } from 'node:crypto';
import {
  AnonymousCardResponse, CARD_NUMBER, CategoriesResponse, FavoritesResponse, PromoCodeResponse, ReceiptQrResponse, formatReceiptQr,
  receiptTimeOf, type CategoryGroup, type FavoriteSelection, type LoyaltyOperation,
} from '../../contracts/loyalty/index.js';
import { basicAuthHeader } from '../../net/basic-auth.js';
import { requestOf, sendRaw, type LoyaltyInputs, type LoyaltyTransportOptions, type RawAnswer } from '../client/transport.js';
import { CheckFailure, check, expectError, expectOk } from './expect.js';

/** What {@link runConformanceCheck} checks: the six operations, and Basic auth. */
export type ConformanceSubject = LoyaltyOperation | 'basicAuth';

/** One subject's verdict. */
export interface ConformanceResult {
  subject: ConformanceSubject;
  ok: boolean;
  /** Why it failed (the first unmet expectation). */
  reason?: string;
  /** Parts that could not be exercised with what the server offers (e.g. no categories listed). */
  notes: string[];
}

/** The verdicts, in the order checked. */
export interface ConformanceReport {
  ok: boolean;
  results: ConformanceResult[];
}

/** Options of {@link runConformanceCheck}. */
export type ConformanceOptions = LoyaltyTransportOptions & {
  /** Now, in ms, for the receipts it makes up. Default `Date.now`. */
  clock?: () => number;
};

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const digits = (n: number) => Array.from({ length: n }, () => String(randomInt(10))).join('');

/** A fresh purchase receipt no server can have seen: random fiscal drive, document and sign, dated a few minutes ago. */
function freshReceiptQr(now: number): string {
  return formatReceiptQr({
    time: receiptTimeOf(now - 5 * 60_000), sum: randomInt(100, 1_000_000), fiscalDriveNumber: `99${digits(14)}`,
    documentNumber: randomInt(1, 2_000_000_000), fiscalSign: String(randomInt(1, 2 ** 32)), operationType: 1,
  });
}

function normalize(favorites: readonly FavoriteSelection[]): string {
  return JSON.stringify(favorites.filter((f) => f.categoryIds.length > 0)
    .map((f) => ({ groupId: f.groupId, categoryIds: [...f.categoryIds].sort() }))
    .sort((a, b) => (a.groupId < b.groupId ? -1 : a.groupId > b.groupId ? 1 : 0)));
}

/**
 * Checks a merchant's Loyalty server against the contract, as the wallet
 * service would call it, creating its own data through the API only: a card
 * (issued twice and concurrently with one requestId: one card), the listed
 * categories (favourites round trip; unknown ids and too many refused with
 * nothing stored), a bogus promo code (INVALID), a fresh random receipt
 * (ACCEPTED, then DUPLICATE; or INVALID if the merchant does not take it), a
 * malformed QR (400 naming qrCode), unknown cards (404), missing and wrong
 * credentials (401). It leaves behind the cards it issued and the receipt it sent.
 *
 * @example
 * const report = await runConformanceCheck({ baseUrl: 'http://127.0.0.1:8091', login, password });
 * for (const line of formatConformanceReport(report)) console.log(line);
 */
export async function runConformanceCheck(options: ConformanceOptions): Promise<ConformanceReport> {
  const clock = options.clock ?? Date.now;
  const run = tag(hex(4));
  const send = <O extends LoyaltyOperation>(operation: O, input: LoyaltyInputs[O], authorization?: string | false): Promise<RawAnswer> =>
    sendRaw(options, requestOf(operation, input), authorization);
  const unknownCard = `WPK-CHECK-${hex(12)}`;
  let cardNumber: string | undefined;
  let groups: CategoryGroup[] | undefined;
  const results: ConformanceResult[] = [];

  async function subject(name: ConformanceSubject, needs: 'card' | 'groups' | undefined, body: (notes: string[]) => Promise<void>): Promise<void> {
    const notes: string[] = [];
    try {
      if (needs === 'card') check(cardNumber !== undefined, 'not run: no card (issueAnonymousCard failed)');
      if (needs === 'groups') check(groups !== undefined, 'not run: no category list (listCategories failed)');
      await body(notes);
      results.push({ subject: name, ok: true, notes });
    } catch (error) {
      const reason = error instanceof CheckFailure ? error.message : `${(error as Error).name}: ${(error as Error).message}`;
      results.push({ subject: name, ok: false, reason, notes });
    }
  }

  await subject('issueAnonymousCard', undefined, async () => {
    const requestId = run('card');
    const first = expectOk(await send('issueAnonymousCard', { requestId }), AnonymousCardResponse, 'issue');
    check(CARD_NUMBER.test(first.cardNumber), `cardNumber '${first.cardNumber}' is not 1 to 64 of [0-9A-Za-z-]`);
    const again = expectOk(await send('issueAnonymousCard', { requestId }), AnonymousCardResponse, 'issue again with the same requestId');
    check(again.cardNumber === first.cardNumber && again.cardKey === first.cardKey,
      `the same requestId gave card ${first.cardNumber}, then ${again.cardNumber}${again.cardNumber === first.cardNumber ? ' with another cardKey' : ''}`);
    const concurrentId = run('card-concurrent');
    const concurrent = await Promise.all([1, 2, 3].map(() => send('issueAnonymousCard', { requestId: concurrentId })));
    const numbers = new Set(concurrent.map((a) => expectOk(a, AnonymousCardResponse, 'concurrent issue').cardNumber));
    check(numbers.size === 1, `three concurrent calls with one requestId gave ${numbers.size} different cards`);
    check(!numbers.has(first.cardNumber), 'two different requestIds gave the same card');
    expectError(await sendRaw(options, { method: 'POST', path: '/v1/card/anonymous', body: {} }), ['BAD_REQUEST'], 'issue without requestId');
    cardNumber = first.cardNumber;
  });

  await subject('basicAuth', 'card', async () => {
    const probe = requestOf('listCategories', { cardNumber: cardNumber! });
    const none = await sendRaw(options, probe, false);
    expectError(none, ['UNAUTHORIZED'], 'a call without credentials');
    check(/^basic/i.test(none.headers.get('www-authenticate') ?? ''), 'a 401 without `WWW-Authenticate: Basic`');
    expectError(await sendRaw(options, probe, basicAuthHeader(options.login, `${options.password}-wrong`)), ['UNAUTHORIZED'], 'a call with a wrong password');
  });

  await subject('listCategories', 'card', async () => {
    const list = expectOk(await send('listCategories', { cardNumber: cardNumber! }), CategoriesResponse, 'list');
    // A well-formed list is enough for the favourites checks, whatever else fails here.
    groups = list.groups;
    const ids = list.groups.map((g) => g.groupId);
    check(new Set(ids).size === ids.length, 'a groupId is listed twice');
    for (const g of list.groups) {
      check(new Set(g.categories.map((c) => c.categoryId)).size === g.categories.length, `group '${g.groupId}' lists a categoryId twice`);
    }
    expectError(await send('listCategories', { cardNumber: unknownCard }), ['CARD_NOT_FOUND'], 'list for an unknown card');
  });

  await subject('getFavoriteCategories', 'groups', async () => {
    const got = expectOk(await send('getFavoriteCategories', { cardNumber: cardNumber! }), FavoritesResponse, 'get');
    for (const f of got.favorites) {
      const group = groups!.find((g) => g.groupId === f.groupId);
      check(group, `the selection names group '${f.groupId}', which is not listed`);
      for (const id of f.categoryIds) check(group.categories.some((c) => c.categoryId === id), `the selection names category '${id}', not listed in '${f.groupId}'`);
      check(f.categoryIds.length <= group.maxSelected, `the selection has more than maxSelected in '${f.groupId}'`);
    }
    expectError(await send('getFavoriteCategories', { cardNumber: unknownCard }), ['CARD_NOT_FOUND'], 'get for an unknown card');
  });

  await subject('setFavoriteCategories', 'groups', async (notes) => {
    const card = cardNumber!;
    const usable = groups!.filter((g) => g.categories.length > 0);
    const selection = usable.map((g) => ({ groupId: g.groupId, categoryIds: g.categories.slice(-g.maxSelected).map((c) => c.categoryId) }));
    if (usable.length === 0) notes.push('no categories listed: only the empty selection was exercised');
    const stored = expectOk(await send('setFavoriteCategories', { cardNumber: card, favorites: selection }), FavoritesResponse, 'set');
    check(normalize(stored.favorites) === normalize(selection), `set answered ${JSON.stringify(stored.favorites)} for ${JSON.stringify(selection)}`);
    const read = async (what: string) => normalize(expectOk(await send('getFavoriteCategories', { cardNumber: card }), FavoritesResponse, what).favorites);
    check(await read('get after set') === normalize(selection), 'get after set does not answer the selection just set');

    const first = usable[0];
    if (first) {
      expectError(await send('setFavoriteCategories', { cardNumber: card, favorites: [{ groupId: first.groupId, categoryIds: [`wpk-check-${hex(6)}`] }] }),
        ['UNKNOWN_CATEGORY'], 'set with an unknown category');
    }
    expectError(await send('setFavoriteCategories', { cardNumber: card, favorites: [{ groupId: `wpk-check-${hex(6)}`, categoryIds: [] }] }),
      ['UNKNOWN_CATEGORY'], 'set with an unknown group');
    const crowded = usable.find((g) => g.categories.length > g.maxSelected);
    if (crowded) {
      const tooMany = crowded.categories.slice(0, crowded.maxSelected + 1).map((c) => c.categoryId);
      expectError(await send('setFavoriteCategories', { cardNumber: card, favorites: [{ groupId: crowded.groupId, categoryIds: tooMany }] }),
        ['TOO_MANY_FAVORITES'], `set with ${tooMany.length} categories in '${crowded.groupId}' (maxSelected ${crowded.maxSelected})`);
    } else {
      notes.push('no group lists more categories than its maxSelected: too many favourites not exercised');
    }
    check(await read('get after refused sets') === normalize(selection), 'a refused set changed the stored selection');
    expectError(await send('setFavoriteCategories', { cardNumber: unknownCard, favorites: [] }), ['CARD_NOT_FOUND'], 'set for an unknown card');
  });

  await subject('sendPromoCode', 'card', async () => {
    const bogus = expectOk(await send('sendPromoCode', { cardNumber: cardNumber!, code: `WPKCHECK${hex(8).toUpperCase()}` }), PromoCodeResponse, 'a bogus code');
    check(bogus.result === 'INVALID', `a bogus code answered ${bogus.result}, not INVALID`);
    expectError(await send('sendPromoCode', { cardNumber: cardNumber!, code: '' }), ['BAD_REQUEST'], 'an empty code');
    expectError(await send('sendPromoCode', { cardNumber: unknownCard, code: 'WPKCHECK' }), ['CARD_NOT_FOUND'], 'a code for an unknown card');
  });

  await subject('sendReceiptQr', 'card', async (notes) => {
    const qrCode = freshReceiptQr(clock());
    const first = expectOk(await send('sendReceiptQr', { cardNumber: cardNumber!, qrCode }), ReceiptQrResponse, `a fresh receipt (${qrCode})`);
    check(first.result !== 'DUPLICATE', `a fresh random receipt answered DUPLICATE (${qrCode})`);
    if (first.result === 'ACCEPTED') {
      const again = expectOk(await send('sendReceiptQr', { cardNumber: cardNumber!, qrCode }), ReceiptQrResponse, 'the same receipt again');
      check(again.result === 'DUPLICATE', `the same receipt again answered ${again.result}, not DUPLICATE`);
    } else {
      notes.push('the server answered INVALID for a fresh purchase receipt: DUPLICATE not exercised');
    }
    const malformed = qrCode.replace(/fn=\d+/, 'fn=123');
    const refused = expectError(await send('sendReceiptQr', { cardNumber: cardNumber!, qrCode: malformed }), ['BAD_REQUEST'], 'a QR with a 3-digit fn');
    check(refused.errors.some((line) => line.startsWith('qrCode')), `a malformed QR was refused without a 'qrCode: ...' line (${refused.errors.join('; ')})`);
    expectError(await send('sendReceiptQr', { cardNumber: unknownCard, qrCode: freshReceiptQr(clock()) }), ['CARD_NOT_FOUND'], 'a receipt for an unknown card');
  });

  return { ok: results.every((r) => r.ok), results };
}

function tag(run: string) {
  return (what: string) => `wpk-check-${run}-${what}-${hex(4)}`;
}

/**
 * One line per subject: `PASS <subject>` (with notes in brackets) or
 * `FAIL <subject>: <reason>`.
 */
export function formatConformanceReport(report: ConformanceReport): string[] {
  return report.results.map((r) => (r.ok
    ? `PASS ${r.subject}${r.notes.length > 0 ? ` (${r.notes.join('; ')})` : ''}`
    : `FAIL ${r.subject}: ${r.reason}`));
}
