import { FlattenedSign } from 'jose';
import { describe, expect, it } from 'vitest';
import { tokenKeyOf, verifyWalletToken } from '../../../../src/sandbox/pay/token.js';
import { createVerifier } from '../../../../src/entries/index.js';
import { BASE_CONFIG, NOW, PARTNER_KEY } from '../../../support/fixtures.js';

const tokenKey = tokenKeyOf(PARTNER_KEY);
const nowSeconds = Math.floor(NOW / 1000);
const encoder = new TextEncoder();

function jtiLedger() {
  const seen = new Set<string>();
  return (jti: string) => {
    if (seen.has(jti)) return false;
    seen.add(jti);
    return true;
  };
}

describe('verifyWalletToken', () => {
  const verifier = createVerifier({ ...BASE_CONFIG, backend: 'wasm', partnerId: 'chain-42', clock: () => NOW });
  const body = '{"requestId":"r-1","cardSession":"AB12CD34","totalAmount":1000,"note":"Молоко"}';

  it('accepts a token from getToken over the exact body bytes, once', async () => {
    const claimJti = jtiLedger();
    const token = verifier.getToken(body);
    const first = await verifyWalletToken(token, encoder.encode(body), { tokenKey, nowSeconds, claimJti });
    expect(first).toMatchObject({ ok: true, header: { alg: 'HS256', kid: 'chain-42', iat: nowSeconds } });
    expect(await verifyWalletToken(token, encoder.encode(body), { tokenKey, nowSeconds, claimJti })).toEqual({
      ok: false,
      refusal: 'REPLAYED',
    });
  });

  it('accepts a token signed by an independent JOSE library', async () => {
    const jws = await new FlattenedSign(encoder.encode(body))
      .setProtectedHeader({
        alg: 'HS256',
        b64: false,
        crit: ['b64'],
        iat: nowSeconds,
        jti: 'abcdefghijklmnopqrstuv',
      } as never)
      .sign(tokenKey);
    const token = `${jws.protected}..${jws.signature}`;
    expect(
      (await verifyWalletToken(token, encoder.encode(body), { tokenKey, nowSeconds, claimJti: jtiLedger() })).ok,
    ).toBe(true);
  });

  it('refuses a tampered body, a wrong key, a stale iat and garbage, without burning the jti', async () => {
    const claimJti = jtiLedger();
    const token = verifier.getToken(body);
    const tampered = encoder.encode(body.replace('1000', '1001'));
    expect(await verifyWalletToken(token, tampered, { tokenKey, nowSeconds, claimJti })).toEqual({
      ok: false,
      refusal: 'SIGNATURE',
    });
    expect(
      await verifyWalletToken(token, encoder.encode(body), {
        tokenKey: tokenKeyOf('ff'.repeat(32)),
        nowSeconds,
        claimJti,
      }),
    ).toEqual({ ok: false, refusal: 'SIGNATURE' });
    expect(
      await verifyWalletToken(token, encoder.encode(body), { tokenKey, nowSeconds: nowSeconds + 301, claimJti }),
    ).toEqual({ ok: false, refusal: 'STALE' });
    expect((await verifyWalletToken(token, encoder.encode(body), { tokenKey, nowSeconds, claimJti })).ok).toBe(true);
    for (const garbage of [undefined, '', 'a.b.c', 'x..y', `${token}.`, token.replace('..', '.x.')]) {
      expect((await verifyWalletToken(garbage, encoder.encode(body), { tokenKey, nowSeconds, claimJti })).ok).toBe(
        false,
      );
    }
  });
});
