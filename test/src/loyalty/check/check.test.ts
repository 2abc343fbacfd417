import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHttp, type HttpServerHandle } from '../../../../adapters/http-server/serve.js';
import type { Database } from '../../../../src/db/index.js';
import { demoConfig } from '../../../../src/entries/index.js';
import {
  createLoyaltyServer,
  LoyaltyError,
  runConformanceCheck,
  type LoyaltyHandlers,
} from '../../../../src/entries/loyalty.js';
import { createLoyaltyProgram, type LoyaltyProgram } from '../../../../src/loyalty-program/program.js';
import { formatConformanceReport } from '../../../../src/loyalty/check/format.js';
import { seedDemoProgram } from '../../../../src/loyalty-program/demo.js';
import { databaseCases } from '../../../support/databases.js';

const CREDENTIALS = { login: 'wallet', password: 'wallet-password-1' };

describe.each(databaseCases('the Loyalty conformance check'))('runConformanceCheck on $name', ({ open }) => {
  let db: Database;
  let program: LoyaltyProgram;
  const servers: HttpServerHandle[] = [];
  const serve = async (
    handlers: LoyaltyHandlers,
    auth: Parameters<typeof createLoyaltyServer>[0]['auth'] = CREDENTIALS,
  ) => {
    const http = await serveHttp(createLoyaltyServer({ handlers, auth, idempotency: false }), { port: 0 });
    servers.push(http);
    return http.url;
  };
  /** The default implementation with one operation swapped for a broken one. */
  const broken = (overrides: Partial<LoyaltyHandlers>) => serve({ ...program.handlers, ...overrides });
  const check = (url: string, credentials = CREDENTIALS) =>
    runConformanceCheck({ baseUrl: url, ...credentials, timeoutMs: 5000 });
  const failures = (report: Awaited<ReturnType<typeof check>>) =>
    report.results.filter((r) => !r.ok).map((r) => r.subject);

  beforeAll(async () => {
    db = await open();
    program = await createLoyaltyProgram(db, { partnerKey: demoConfig.verifier.key, credentials: CREDENTIALS });
    await seedDemoProgram(program.store, Date.now());
  });
  afterAll(async () => {
    for (const http of servers) await http.close();
    await db?.close();
  });

  it('passes every operation of the default implementation, one PASS line each', async () => {
    const http = await serveHttp(program.app, { port: 0 });
    servers.push(http);
    const report = await check(http.url);
    expect(formatConformanceReport(report)).toEqual([
      'PASS issueAnonymousCard',
      'PASS basicAuth',
      'PASS listCategories',
      'PASS getFavoriteCategories',
      'PASS setFavoriteCategories',
      'PASS sendPromoCode',
      'PASS sendReceiptQr',
    ]);
    expect(report.ok).toBe(true);
  });

  it('names issueAnonymousCard when the same requestId gives another card', async () => {
    let n = 0;
    const url = await broken({
      issueAnonymousCard: async (input, ctx) =>
        program.handlers.issueAnonymousCard({ requestId: `${input.requestId}-${n++}` }, ctx),
    });
    const report = await check(url);
    expect(failures(report)).toEqual([
      'issueAnonymousCard',
      'basicAuth',
      'listCategories',
      'getFavoriteCategories',
      'setFavoriteCategories',
      'sendPromoCode',
      'sendReceiptQr',
    ]);
    expect(formatConformanceReport(report)[0]).toMatch(
      /^FAIL issueAnonymousCard: the same requestId gave card \d+, then \d+$/,
    );
    expect(formatConformanceReport(report)[1]).toBe('FAIL basicAuth: not run: no card (issueAnonymousCard failed)');
  });

  it('names setFavoriteCategories when the selection does not round-trip', async () => {
    const url = await broken({ setFavoriteCategories: async ({ favorites }) => ({ favorites }) });
    const report = await check(url);
    expect(failures(report)).toEqual(['setFavoriteCategories']);
    expect(report.results.find((r) => !r.ok)?.reason).toBe('get after set does not answer the selection just set');
  });

  it('names setFavoriteCategories when too many favourites are stored instead of refused', async () => {
    const url = await broken({
      setFavoriteCategories: async (input, ctx) => {
        const trimmed = input.favorites.map((f) => ({ ...f, categoryIds: f.categoryIds.slice(0, 1) }));
        return program.handlers.setFavoriteCategories({ ...input, favorites: trimmed }, ctx);
      },
    });
    const [line] = formatConformanceReport(await check(url)).filter((l) => l.startsWith('FAIL'));
    expect(line).toMatch(/^FAIL setFavoriteCategories: set answered .* for /);
  });

  it('names sendPromoCode when a bogus code is APPLIED', async () => {
    const url = await broken({ sendPromoCode: async () => ({ result: 'APPLIED', message: 'sure', bonusAmount: 1 }) });
    expect(formatConformanceReport(await check(url)).filter((l) => l.startsWith('FAIL'))).toEqual([
      'FAIL sendPromoCode: a bogus code answered APPLIED, not INVALID',
    ]);
  });

  it('names sendReceiptQr when a receipt is accepted twice', async () => {
    const url = await broken({ sendReceiptQr: async () => ({ result: 'ACCEPTED', bonusAmount: 10 }) });
    expect(formatConformanceReport(await check(url)).filter((l) => l.startsWith('FAIL'))).toEqual([
      'FAIL sendReceiptQr: the same receipt again answered ACCEPTED, not DUPLICATE',
    ]);
  });

  it(
    'names listCategories and getFavoriteCategories when an unknown card is ' + 'answered, or answered off-contract',
    async () => {
      const url = await broken({
        listCategories: async (input, ctx) =>
          input.cardNumber.startsWith('WPK-CHECK') ? { groups: [] } : program.handlers.listCategories(input, ctx),
        getFavoriteCategories: async () => ({ favorites: [{ groupId: 'x y', categoryIds: [] }] }),
      });
      const lines = formatConformanceReport(await check(url)).filter((l) => l.startsWith('FAIL'));
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatch(
        /^FAIL listCategories: list for an unknown card: expected 404 CARD_NOT_FOUND, got HTTP 200/,
      );
      expect(lines[1]).toMatch(/^FAIL getFavoriteCategories: get: expected 200, got HTTP 500 .*INTERNAL/);
      // The round trip reads the selection back through the broken get.
      expect(lines[2]).toMatch(/^FAIL setFavoriteCategories: get after set: expected 200, got HTTP 500/);
    },
  );

  it(
    'names basicAuth when any credentials are let in, and every operation ' + 'when it is given the wrong ones',
    async () => {
      const open = await serve(program.handlers, () => true);
      expect(failures(await check(open))).toEqual(['basicAuth']);
      const http = await serveHttp(program.app, { port: 0 });
      servers.push(http);
      const report = await check(http.url, { login: 'wallet', password: 'not-the-password' });
      expect(formatConformanceReport(report)[0]).toMatch(/^FAIL issueAnonymousCard: issue: expected 200, got HTTP 401/);
      expect(report.ok).toBe(false);
    },
  );

  it('names a refusal that uses an undocumented code', async () => {
    const url = await broken({
      sendPromoCode: async () => {
        throw new LoyaltyError('NOT_FOUND', 'cardNumber: no such card');
      },
    });
    const lines = formatConformanceReport(await check(url)).filter((l) => l.startsWith('FAIL'));
    expect(lines).toEqual([expect.stringMatching(/^FAIL sendPromoCode: a bogus code: expected 200, got HTTP 404/)]);
  });
});

describe('runConformanceCheck against nothing', () => {
  it('fails every subject with the network error when the URL does not answer', async () => {
    const http = await serveHttp({ fetch: () => new Response('') }, { port: 0 });
    const url = http.url;
    await http.close();
    const report = await runConformanceCheck({ baseUrl: url, ...CREDENTIALS, timeoutMs: 2000 });
    expect(report.ok).toBe(false);
    expect(formatConformanceReport(report)[0]).toMatch(
      /^FAIL issueAnonymousCard: LoyaltyClientError: POST \/v1\/card\/anonymous: /,
    );
    expect(report.results.every((r) => !r.ok)).toBe(true);
  });
});
