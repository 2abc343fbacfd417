import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHttp, type HttpServerHandle } from '../../../adapters/http-server/serve.js';
import { basicAuthHeader } from '../../../src/net/basic-auth.js';
import {
  createLoyaltyServer,
  LoyaltyError,
  type LoyaltyCallContext,
  type LoyaltyHandlers,
} from '../../../src/entries/loyalty.js';

const CREDENTIALS = { login: 'wallet', password: 'wallet-password-1' };
const AUTH = basicAuthHeader(CREDENTIALS.login, CREDENTIALS.password);
const QR = 't=20240315T1425&s=1020.00&fn=9289000100242345&i=12345&fp=3826350066&n=1';

/** Handlers that record what they were given; behaviour switched per test through `mode`. */
function recordingHandlers() {
  const calls: Array<{ op: string; input: unknown; ctx: LoyaltyCallContext }> = [];
  const state = { mode: 'ok' as 'ok' | 'throw' | 'off-contract' | 'slow' };
  let issued = 0;
  const handlers: LoyaltyHandlers = {
    async issueAnonymousCard(input, ctx) {
      calls.push({ op: 'issue', input, ctx });
      if (state.mode === 'slow') await new Promise((r) => setTimeout(r, 50));
      issued += 1;
      return { cardNumber: `CARD-${issued}`, cardKey: 'ab'.repeat(32) };
    },
    async listCategories(input, ctx) {
      calls.push({ op: 'list', input, ctx });
      if (state.mode === 'throw') throw new Error('database password is hunter2');
      if (state.mode === 'off-contract')
        return { groups: [{ groupId: 'g', name: 'G', maxSelected: 0, categories: [] }] };
      if (input.cardNumber !== 'KNOWN') throw new LoyaltyError('CARD_NOT_FOUND', 'cardNumber: no such card');
      return { groups: [] };
    },
    async getFavoriteCategories() {
      return { favorites: [] };
    },
    async setFavoriteCategories(input) {
      throw new LoyaltyError('TOO_MANY_FAVORITES', [
        `favorites.0.categoryIds: at most 1 may be chosen in group '${input.favorites[0]?.groupId}'`,
      ]);
    },
    async sendPromoCode(input, ctx) {
      calls.push({ op: 'promo', input, ctx });
      return { result: 'INVALID', message: 'no such code' };
    },
    async sendReceiptQr(input, ctx) {
      calls.push({ op: 'receipt', input, ctx });
      return { result: 'ACCEPTED', bonusAmount: 1020 };
    },
  };
  return { handlers, calls, state };
}

describe('createLoyaltyServer', () => {
  const { handlers, calls, state } = recordingHandlers();
  let http: HttpServerHandle;
  const post = (path: string, body: unknown, headers: Record<string, string> = { authorization: AUTH }) =>
    fetch(`${http.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const get = (path: string, headers: Record<string, string> = { authorization: AUTH }) =>
    fetch(`${http.url}${path}`, { headers });

  beforeAll(async () => {
    http = await serveHttp(createLoyaltyServer({ handlers, auth: CREDENTIALS }), { port: 0 });
  });
  afterAll(() => http.close());

  it(
    'refuses a call without credentials, or with wrong ones, with 401 and WWW-Authenticate: Basic, before looking ' +
      'at the body',
    async () => {
      for (const headers of [
        {} as Record<string, string>,
        { authorization: basicAuthHeader('wallet', 'wrong') },
        { authorization: basicAuthHeader('other', CREDENTIALS.password) },
        { authorization: 'Bearer x' },
      ]) {
        const res = await post('/v1/promo/code', '{not json', headers);
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm="loyalty"/);
        expect(await res.json()).toMatchObject({ status: 'UNAUTHORIZED', errors: ['Invalid authorization token'] });
      }
      expect(calls.filter((c) => c.op === 'promo')).toHaveLength(0);
    },
  );

  it(
    'answers bad bodies and bad path parameters 400 BAD_REQUEST, one line per ' + 'field, without calling the handler',
    async () => {
      const bad = await post('/v1/promo/code', { cardNumber: 'no\ttabs allowed', code: '   ' });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({
        status: 'BAD_REQUEST',
        errors: [
          'cardNumber: must be 1 to 64 characters (UTF-8 bytes) without control characters',
          'code: must not be empty',
        ],
      });
      const path = await get(`/v1/card/${'9'.repeat(65)}/categories`);
      expect(path.status).toBe(400);
      expect(await path.json()).toMatchObject({
        status: 'BAD_REQUEST',
        errors: ['cardNumber: must be 1 to 64 characters (UTF-8 bytes) without control characters'],
      });
      expect((await post('/v1/card/anonymous', '{')).status).toBe(400);
      expect(await (await post('/v1/card/anonymous', { requestId: 'r', extra: 1 })).json()).toMatchObject({
        status: 'BAD_REQUEST',
        errors: ['extra: unknown field'],
      });
      expect(calls.filter((c) => c.op === 'promo')).toHaveLength(0);
    },
  );

  it('gives the handler the decoded card number when the path carries it URL-encoded', async () => {
    calls.length = 0;
    const cardNumber = '4000 12_34.5/Ж';
    const answer = await get(`/v1/card/${encodeURIComponent(cardNumber)}/categories`);
    expect(answer.status).toBe(404);
    expect(calls.at(-1)).toMatchObject({ op: 'list', input: { cardNumber } });
  });

  it('refuses each malformed part of a receipt QR with its own qrCode line', async () => {
    const res = await post('/v1/promo/qrCode', { cardNumber: 'KNOWN', qrCode: 't=20240315&s=10.5&fn=1&i=0&fp=x&n=7' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { status: string; errors: string[] };
    expect(body.status).toBe('BAD_REQUEST');
    expect(body.errors.map((line) => line.split(' must')[0])).toEqual([
      'qrCode: t',
      'qrCode: s',
      'qrCode: fn',
      'qrCode: i',
      'qrCode: fp',
      'qrCode: n',
    ]);
  });

  it('gives the handler the parsed receipt, the login and the request id it echoes', async () => {
    const res = await post(
      '/v1/promo/qrCode',
      { cardNumber: 'KNOWN', qrCode: QR },
      { authorization: AUTH, 'x-request-id': 'req-qr-1' },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('req-qr-1');
    expect(await res.json()).toEqual({ result: 'ACCEPTED', bonusAmount: 1020 });
    const call = calls.find((c) => c.op === 'receipt')!;
    expect(call.ctx).toEqual({ requestId: 'req-qr-1', login: 'wallet' });
    expect(call.input).toMatchObject({
      cardNumber: 'KNOWN',
      qrCode: QR,
      receipt: { sum: 102000, fiscalDriveNumber: '9289000100242345', operationType: 1 },
    });
  });

  it('answers a LoyaltyError with its code and HTTP status', async () => {
    const missing = await get('/v1/card/UNKNOWN/categories');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ status: 'CARD_NOT_FOUND', errors: ['cardNumber: no such card'] });
    const tooMany = await post('/v1/card/KNOWN/categories/favorite', {
      favorites: [{ groupId: 'g', categoryIds: ['a', 'b'] }],
    });
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toMatchObject({
      status: 'TOO_MANY_FAVORITES',
      errors: ["favorites.0.categoryIds: at most 1 may be chosen in group 'g'"],
    });
  });

  it('answers 500 INTERNAL, leaking nothing, when a handler throws or answers off-contract', async () => {
    try {
      state.mode = 'throw';
      const thrown = await get('/v1/card/KNOWN/categories');
      expect(thrown.status).toBe(500);
      const text = await thrown.text();
      expect(JSON.parse(text)).toMatchObject({ status: 'INTERNAL', errors: ['Internal error'] });
      expect(text).not.toContain('hunter2');
      state.mode = 'off-contract';
      const off = await get('/v1/card/KNOWN/categories');
      expect(off.status).toBe(500);
      expect(await off.json()).toMatchObject({ status: 'INTERNAL', errors: ['Internal error'] });
    } finally {
      state.mode = 'ok';
    }
  });

  it('runs concurrent issues with one requestId once, and replays the card', async () => {
    try {
      state.mode = 'slow';
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => post('/v1/card/anonymous', { requestId: 'same-1' }).then((r) => r.json())),
      );
      expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
      expect(await (await post('/v1/card/anonymous', { requestId: 'same-1' })).json()).toEqual(answers[0]);
      expect(
        calls.filter((c) => c.op === 'issue' && (c.input as { requestId: string }).requestId === 'same-1'),
      ).toHaveLength(1);
      const other = await (await post('/v1/card/anonymous', { requestId: 'same-2' })).json();
      expect(other).not.toEqual(answers[0]);
    } finally {
      state.mode = 'ok';
    }
  });

  it('serves /healthz and the OpenAPI document without credentials, and 404 for unknown routes', async () => {
    expect(await (await get('/healthz', {})).json()).toMatchObject({ status: 'ok', version: '1.4.0' });
    const doc = (await (await get('/openapi.json', {})).json()) as {
      info: { version: string };
      paths: Record<string, unknown>;
    };
    expect(doc.info.version).toBe('1.4.0');
    expect(Object.keys(doc.paths)).toContain('/v1/promo/qrCode');
    const unknown = await get('/v1/nothing');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ status: 'NOT_FOUND' });
  });
});

describe('createLoyaltyServer auth options', () => {
  it('takes several credentials (rotation) and a function', async () => {
    const { handlers } = recordingHandlers();
    const rotated = await serveHttp(
      createLoyaltyServer({ handlers, auth: [CREDENTIALS, { login: 'wallet', password: 'next-password-2' }] }),
      { port: 0 },
    );
    const custom = await serveHttp(createLoyaltyServer({ handlers, auth: ({ login }) => login === 'anyone' }), {
      port: 0,
    });
    try {
      const call = (url: string, login: string, password: string) =>
        fetch(`${url}/v1/card/KNOWN/categories`, { headers: { authorization: basicAuthHeader(login, password) } }).then(
          (r) => r.status,
        );
      expect(await call(rotated.url, 'wallet', 'wallet-password-1')).toBe(200);
      expect(await call(rotated.url, 'wallet', 'next-password-2')).toBe(200);
      expect(await call(rotated.url, 'wallet', 'old')).toBe(401);
      expect(await call(custom.url, 'anyone', 'x')).toBe(200);
      expect(await call(custom.url, 'someone', 'x')).toBe(401);
    } finally {
      await rotated.close();
      await custom.close();
    }
  });
});
