// The subjects of the Loyalty conformance check: what each expects of the server, in the order checked.
import { randomInt } from 'node:crypto';
import {
  AnonymousCardResponse,
  CategoriesResponse,
  FavoritesResponse,
  PromoCodeResponse,
  ReceiptQrResponse,
  formatReceiptQr,
  receiptTimeOf,
  type FavoriteSelection,
  type LoyaltyOperation,
} from '../../contracts/loyalty/index.js';
import { CARD_NUMBER_RULE, isCardNumber } from '../../contracts/card-identifiers.js';
import { basicAuthHeader } from '../../net/basic-auth.js';
import { requestOf, sendRaw } from '../client/transport.js';
import { hex, type CheckRun } from './check-run.js';
import { check, expectError, expectOk } from './expect.js';

/** What the conformance check checks: the six operations, and Basic auth. */
export type ConformanceSubject = LoyaltyOperation | 'basicAuth';

/**
 * One subject's checks: throws a CheckFailure at the first unmet expectation; adds notes on what it could not
 * do.
 */
export type SubjectCheck = (run: CheckRun, notes: string[]) => Promise<void>;

/** What a subject needs from an earlier one: the card issued, or the category list. */
export type SubjectNeeds = 'card' | 'groups' | undefined;

/** The subjects in the order checked, each with what it needs from an earlier one. */
export const SUBJECTS: ReadonlyArray<readonly [ConformanceSubject, SubjectNeeds, SubjectCheck]> = [
  ['issueAnonymousCard', undefined, checkIssueAnonymousCard],
  ['basicAuth', 'card', checkBasicAuth],
  ['listCategories', 'card', checkListCategories],
  ['getFavoriteCategories', 'groups', checkGetFavoriteCategories],
  ['setFavoriteCategories', 'groups', checkSetFavoriteCategories],
  ['sendPromoCode', 'card', checkSendPromoCode],
  ['sendReceiptQr', 'card', checkSendReceiptQr],
];

/** One card per requestId, also when asked concurrently; a card number of the contract's form. */
async function checkIssueAnonymousCard(run: CheckRun): Promise<void> {
  const { send } = run;
  const requestId = run.tag('card');
  const first = expectOk(await send('issueAnonymousCard', { requestId }), AnonymousCardResponse, 'issue');
  check(isCardNumber(first.cardNumber), `cardNumber '${first.cardNumber}' is not ${CARD_NUMBER_RULE}`);
  const again = expectOk(
    await send('issueAnonymousCard', { requestId }),
    AnonymousCardResponse,
    'issue again with the same requestId',
  );
  const sameNumber = again.cardNumber === first.cardNumber;
  const otherKey = sameNumber ? ' with another cardKey' : '';
  check(
    sameNumber && again.cardKey === first.cardKey,
    `the same requestId gave card ${first.cardNumber}, then ${again.cardNumber}${otherKey}`,
  );
  const concurrentId = run.tag('card-concurrent');
  const concurrent = await Promise.all([1, 2, 3].map(() => send('issueAnonymousCard', { requestId: concurrentId })));
  const numbers = new Set(concurrent.map((a) => expectOk(a, AnonymousCardResponse, 'concurrent issue').cardNumber));
  check(numbers.size === 1, `three concurrent calls with one requestId gave ${numbers.size} different cards`);
  check(!numbers.has(first.cardNumber), 'two different requestIds gave the same card');
  expectError(
    await sendRaw(run.options, { method: 'POST', path: '/v1/card/anonymous', body: {} }),
    ['BAD_REQUEST'],
    'issue without requestId',
  );
  run.cardNumber = first.cardNumber;
}

/** 401 with `WWW-Authenticate: Basic` without credentials and with a wrong password. */
async function checkBasicAuth(run: CheckRun): Promise<void> {
  const { options } = run;
  const probe = requestOf('listCategories', { cardNumber: run.cardNumber! });
  const none = await sendRaw(options, probe, false);
  expectError(none, ['UNAUTHORIZED'], 'a call without credentials');
  check(/^basic/i.test(none.headers.get('www-authenticate') ?? ''), 'a 401 without `WWW-Authenticate: Basic`');
  const wrong = basicAuthHeader(options.login, `${options.password}-wrong`);
  expectError(await sendRaw(options, probe, wrong), ['UNAUTHORIZED'], 'a call with a wrong password');
}

/** A well-formed list without repeated ids; CARD_NOT_FOUND for an unknown card. */
async function checkListCategories(run: CheckRun): Promise<void> {
  const list = expectOk(await run.send('listCategories', { cardNumber: run.cardNumber! }), CategoriesResponse, 'list');
  // A well-formed list is enough for the favourites checks, whatever else fails here.
  run.groups = list.groups;
  const ids = list.groups.map((g) => g.groupId);
  check(new Set(ids).size === ids.length, 'a groupId is listed twice');
  for (const g of list.groups) {
    check(
      new Set(g.categories.map((c) => c.categoryId)).size === g.categories.length,
      `group '${g.groupId}' lists a categoryId twice`,
    );
  }
  expectError(
    await run.send('listCategories', { cardNumber: run.unknownCard }),
    ['CARD_NOT_FOUND'],
    'list for an unknown card',
  );
}

/** A selection of listed categories within each group's maxSelected; CARD_NOT_FOUND for an unknown card. */
async function checkGetFavoriteCategories(run: CheckRun): Promise<void> {
  const got = expectOk(
    await run.send('getFavoriteCategories', { cardNumber: run.cardNumber! }),
    FavoritesResponse,
    'get',
  );
  for (const f of got.favorites) {
    const group = run.groups!.find((g) => g.groupId === f.groupId);
    check(group, `the selection names group '${f.groupId}', which is not listed`);
    for (const id of f.categoryIds) {
      check(
        group.categories.some((c) => c.categoryId === id),
        `the selection names category '${id}', not listed in '${f.groupId}'`,
      );
    }
    check(f.categoryIds.length <= group.maxSelected, `the selection has more than maxSelected in '${f.groupId}'`);
  }
  expectError(
    await run.send('getFavoriteCategories', { cardNumber: run.unknownCard }),
    ['CARD_NOT_FOUND'],
    'get for an unknown card',
  );
}

/** The favourites round trip, and refusals (unknown ids, too many) that leave the stored selection as it was. */
async function checkSetFavoriteCategories(run: CheckRun, notes: string[]): Promise<void> {
  const { send } = run;
  const card = run.cardNumber!;
  const usable = run.groups!.filter((g) => g.categories.length > 0);
  const selection = usable.map((g) => ({
    groupId: g.groupId,
    categoryIds: g.categories.slice(-g.maxSelected).map((c) => c.categoryId),
  }));
  if (usable.length === 0) notes.push('no categories listed: only the empty selection was exercised');
  const stored = expectOk(
    await send('setFavoriteCategories', { cardNumber: card, favorites: selection }),
    FavoritesResponse,
    'set',
  );
  check(
    normalize(stored.favorites) === normalize(selection),
    `set answered ${JSON.stringify(stored.favorites)} for ${JSON.stringify(selection)}`,
  );
  const read = async (what: string) =>
    normalize(expectOk(await send('getFavoriteCategories', { cardNumber: card }), FavoritesResponse, what).favorites);
  check((await read('get after set')) === normalize(selection), 'get after set does not answer the selection just set');

  const set = (favorites: FavoriteSelection[]) => send('setFavoriteCategories', { cardNumber: card, favorites });
  const first = usable[0];
  if (first) {
    expectError(
      await set([{ groupId: first.groupId, categoryIds: [`wpk-check-${hex(6)}`] }]),
      ['UNKNOWN_CATEGORY'],
      'set with an unknown category',
    );
  }
  expectError(
    await set([{ groupId: `wpk-check-${hex(6)}`, categoryIds: [] }]),
    ['UNKNOWN_CATEGORY'],
    'set with an unknown group',
  );
  const crowded = usable.find((g) => g.categories.length > g.maxSelected);
  if (crowded) {
    const tooMany = crowded.categories.slice(0, crowded.maxSelected + 1).map((c) => c.categoryId);
    expectError(
      await set([{ groupId: crowded.groupId, categoryIds: tooMany }]),
      ['TOO_MANY_FAVORITES'],
      `set with ${tooMany.length} categories in '${crowded.groupId}' (maxSelected ${crowded.maxSelected})`,
    );
  } else {
    notes.push('no group lists more categories than its maxSelected: too many favourites not exercised');
  }
  check((await read('get after refused sets')) === normalize(selection), 'a refused set changed the stored selection');
  expectError(
    await send('setFavoriteCategories', { cardNumber: run.unknownCard, favorites: [] }),
    ['CARD_NOT_FOUND'],
    'set for an unknown card',
  );
}

/** INVALID for a bogus code, 400 for an empty one, CARD_NOT_FOUND for an unknown card. */
async function checkSendPromoCode(run: CheckRun): Promise<void> {
  const { send } = run;
  const cardNumber = run.cardNumber!;
  const bogus = expectOk(
    await send('sendPromoCode', { cardNumber, code: `WPKCHECK${hex(8).toUpperCase()}` }),
    PromoCodeResponse,
    'a bogus code',
  );
  check(bogus.result === 'INVALID', `a bogus code answered ${bogus.result}, not INVALID`);
  expectError(await send('sendPromoCode', { cardNumber, code: '' }), ['BAD_REQUEST'], 'an empty code');
  expectError(
    await send('sendPromoCode', { cardNumber: run.unknownCard, code: 'WPKCHECK' }),
    ['CARD_NOT_FOUND'],
    'a code for an unknown card',
  );
}

/** A fresh receipt ACCEPTED then DUPLICATE (or INVALID), a malformed QR refused naming qrCode, an unknown card. */
async function checkSendReceiptQr(run: CheckRun, notes: string[]): Promise<void> {
  const { send } = run;
  const cardNumber = run.cardNumber!;
  const qrCode = freshReceiptQr(run.clock());
  const first = expectOk(
    await send('sendReceiptQr', { cardNumber, qrCode }),
    ReceiptQrResponse,
    `a fresh receipt (${qrCode})`,
  );
  check(first.result !== 'DUPLICATE', `a fresh random receipt answered DUPLICATE (${qrCode})`);
  if (first.result === 'ACCEPTED') {
    const again = expectOk(
      await send('sendReceiptQr', { cardNumber, qrCode }),
      ReceiptQrResponse,
      'the same receipt again',
    );
    check(again.result === 'DUPLICATE', `the same receipt again answered ${again.result}, not DUPLICATE`);
  } else {
    notes.push('the server answered INVALID for a fresh purchase receipt: DUPLICATE not exercised');
  }
  const malformed = qrCode.replace(/fn=\d+/, 'fn=123');
  const refused = expectError(
    await send('sendReceiptQr', { cardNumber, qrCode: malformed }),
    ['BAD_REQUEST'],
    'a QR with a 3-digit fn',
  );
  check(
    refused.errors.some((line) => line.startsWith('qrCode')),
    `a malformed QR was refused without a 'qrCode: ...' line (${refused.errors.join('; ')})`,
  );
  expectError(
    await send('sendReceiptQr', { cardNumber: run.unknownCard, qrCode: freshReceiptQr(run.clock()) }),
    ['CARD_NOT_FOUND'],
    'a receipt for an unknown card',
  );
}

const digits = (n: number) => Array.from({ length: n }, () => String(randomInt(10))).join('');

/**
 * A fresh purchase receipt no server can have seen: random fiscal drive, document and sign, dated a few minutes
 * ago.
 */
function freshReceiptQr(now: number): string {
  return formatReceiptQr({
    time: receiptTimeOf(now - 5 * 60_000),
    sum: randomInt(100, 1_000_000),
    fiscalDriveNumber: `99${digits(14)}`,
    documentNumber: randomInt(1, 2_000_000_000),
    fiscalSign: String(randomInt(1, 2 ** 32)),
    operationType: 1,
  });
}

function normalize(favorites: readonly FavoriteSelection[]): string {
  return JSON.stringify(
    favorites
      .filter((f) => f.categoryIds.length > 0)
      .map((f) => ({ groupId: f.groupId, categoryIds: [...f.categoryIds].sort() }))
      .sort((a, b) => (a.groupId < b.groupId ? -1 : a.groupId > b.groupId ? 1 : 0)),
  );
}
