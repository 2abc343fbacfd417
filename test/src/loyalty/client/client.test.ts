import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHttp, type HttpServerHandle } from '../../../../adapters/http-server/serve.js';
import { parseBasicAuth } from '../../../../src/net/basic-auth.js';
import { createLoyaltyClient, LoyaltyClientError, LoyaltyError } from '../../../../src/entries/loyalty.js';

const CREDENTIALS = { login: 'wallet', password: 'pässword:with:colons' };

/** A server we script per path, to see what the client makes of answers on and off the contract. */
describe('createLoyaltyClient', () => {
  let http: HttpServerHandle;
  const seen: Array<{ method: string; path: string; body: string; login?: string; password?: string }> = [];

  beforeAll(async () => {
    http = await serveHttp(
      {
        async fetch(request: Request) {
          const url = new URL(request.url);
          const credentials = parseBasicAuth(request.headers.get('authorization'));
          seen.push({ method: request.method, path: url.pathname, body: await request.text(), ...credentials });
          const json = (status: number, body: unknown) =>
            new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
          switch (url.pathname) {
            case '/v1/card/anonymous':
              return json(200, { cardNumber: '2990000000000001', cardKey: 'ab'.repeat(32) });
            case '/v1/card/A%2FB/categories':
              return json(200, { groups: [] });
            case '/v1/card/GONE/categories':
              return json(404, { status: 'CARD_NOT_FOUND', errors: ['cardNumber: no such card'] });
            case '/v1/card/ODD/categories':
              return json(418, { status: 'TEAPOT', errors: [] });
            case '/v1/card/BAD/categories':
              return json(200, { groups: 'none' });
            case '/v1/card/SLOW/categories':
              await new Promise((r) => setTimeout(r, 500));
              return json(200, { groups: [] });
            case '/v1/promo/code':
              return json(200, { result: 'EXPIRED', message: 'gone' });
            default:
              return new Response('<html>proxy error</html>', { status: 502 });
          }
        },
      },
      { port: 0 },
    );
  });
  afterAll(() => http.close());

  it('sends Basic credentials and the JSON body, and returns the checked answer', async () => {
    const loyalty = createLoyaltyClient({ baseUrl: `${http.url}/`, ...CREDENTIALS });
    expect(await loyalty.issueAnonymousCard('r-1')).toEqual({
      cardNumber: '2990000000000001',
      cardKey: 'ab'.repeat(32),
    });
    expect(await loyalty.sendPromoCode('C1', 'X')).toEqual({ result: 'EXPIRED', message: 'gone' });
    expect(seen[0]).toEqual({
      method: 'POST',
      path: '/v1/card/anonymous',
      body: '{"requestId":"r-1"}',
      ...CREDENTIALS,
    });
    expect(JSON.parse(seen[1]!.body)).toEqual({ cardNumber: 'C1', code: 'X' });
  });

  it('escapes the card number in the path', async () => {
    expect(await createLoyaltyClient({ baseUrl: http.url, ...CREDENTIALS }).listCategories('A/B')).toEqual({
      groups: [],
    });
  });

  it('throws LoyaltyError with the code for a documented refusal', async () => {
    const error = await createLoyaltyClient({ baseUrl: http.url, ...CREDENTIALS })
      .listCategories('GONE')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoyaltyError);
    expect(error).toMatchObject({ code: 'CARD_NOT_FOUND', httpStatus: 404, errors: ['cardNumber: no such card'] });
  });

  it(
    'throws LoyaltyClientError BAD_RESPONSE for an undocumented code, an ' + 'off-contract body and a non-JSON answer',
    async () => {
      const loyalty = createLoyaltyClient({ baseUrl: http.url, ...CREDENTIALS });
      await expect(loyalty.listCategories('ODD')).rejects.toMatchObject({
        name: 'LoyaltyClientError',
        code: 'LOYALTY_PROTOCOL',
        httpStatus: 418,
      });
      await expect(loyalty.listCategories('BAD')).rejects.toMatchObject({
        code: 'LOYALTY_PROTOCOL',
        message: expect.stringContaining('groups:'),
      });
      await expect(loyalty.getFavoriteCategories('X')).rejects.toMatchObject({
        code: 'LOYALTY_PROTOCOL',
        httpStatus: 502,
      });
    },
  );

  it('throws TIMEOUT past timeoutMs and NETWORK_ERROR when nothing listens', async () => {
    await expect(
      createLoyaltyClient({ baseUrl: http.url, ...CREDENTIALS, timeoutMs: 50 }).listCategories('SLOW'),
    ).rejects.toMatchObject({ code: 'LOYALTY_TIMEOUT' });
    const gone = await serveHttp({ fetch: () => new Response('') }, { port: 0 });
    await gone.close();
    const error = await createLoyaltyClient({ baseUrl: gone.url, ...CREDENTIALS })
      .listCategories('X')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoyaltyClientError);
    expect(error).toMatchObject({ code: 'LOYALTY_NETWORK' });
  });
});
