import type { Context, MiddlewareHandler } from 'hono';
import { guardedCheck, isJsonMediaType } from '../../../adapters/http-server/index.js';
import { resolvePartner, type Partner } from './partners.js';
import type { PayRuntime } from './runtime.js';
import { blockAfterRefusedToken } from './refused-token.js';
import { precheckWalletToken, verifyWalletToken } from './token.js';
import { hmacTokenPartner } from './token-hmac.js';
import { payRefusal } from './pay-refusals.js';

const PARTNER_KEY = 'payPartner';

/** The partner whose token the request carried (undefined on an unsigned `/status`). */
export function partnerOf(c: Context): Partner | undefined {
  return c.get(PARTNER_KEY as never) as Partner | undefined;
}

/** Like {@link partnerOf}, for routes whose token is required. */
export function signedPartner(c: Context): Partner {
  const partner = partnerOf(c);
  if (partner === undefined) throw new Error('route without the token middleware');
  return partner;
}

const refused = (header: string) => payRefusal('TOKEN_INVALID', [`${header}: invalid`]);

/**
 * Checks `X-Wallet-Token` over the raw body bytes before anything else
 * (the README's Pay API tokens; the Pay API's first check). Before the body is
 * read: the token's shape, header and age, and its partner, the token's `kid`
 * (or the only partner); so no body is buffered for a request that could
 * never pass (and the app's body limit has refused an oversized one before
 * either). Then, over the body: signature and a new jti
 * (kept in the database: shared by sandboxes on one PostgreSQL, kept across
 * restarts). Every refusal answers the same 401; the reason is logged at debug.
 * A wrong signature blocks the card session the body names (document section
 * 5: no further action with the card; see blockAfterRefusedToken).
 * Refusals count against the sandbox's brute-force limit per address and per
 * partner: past it, 429 with `Retry-After` before the body is read.
 * Then the body must be JSON by its content type (415 otherwise). The header is the Pay module's `tokenHeader`;
 * under an HMAC `tokenScheme` the token is checked by {@link hmacTokenPartner} instead.
 */
export function walletToken(rt: PayRuntime, { required }: { required: boolean }): MiddlewareHandler {
  const { tokenHeader, tokenScheme } = rt.options;
  return async (c, next) => {
    const token = c.req.header(tokenHeader);
    if ((token !== undefined || required) && tokenScheme !== 'kit') {
      const partner = await hmacTokenPartner(rt, c, token, tokenScheme);
      if (partner === undefined) throw refused(tokenHeader);
      c.set(PARTNER_KEY as never, partner as never);
    } else if (token !== undefined || required) {
      const pre = precheckWalletToken(token, Math.floor(rt.ctx.clock() / 1000));
      const kid = pre.ok ? pre.header.kid : undefined;
      const guard = rt.ctx.authLimiter && { limiter: rt.ctx.authLimiter, logger: rt.ctx.logger, realm: 'pay' };
      // Checked before the body is read: a locked-out caller costs no body. Counted per partner (the token's kid) and
      // per address.
      const partner = await guardedCheck(guard, c, kid === undefined ? undefined : `pay:${kid}`, async () => {
        const found = !pre.ok
          ? undefined
          : kid === undefined
            ? await resolvePartner(rt.ctx.db, undefined)
            : await rt.partners.get(rt.ctx.db, kid);
        if (found === undefined) {
          rt.ctx.logger.debug({ path: c.req.path, refusal: pre.ok ? 'PARTNER' : pre.refusal }, 'wallet token refused');
          return undefined;
        }
        const body = new Uint8Array(await c.req.arrayBuffer());
        const result = await verifyWalletToken(token, body, {
          tokenKey: found.tokenKey,
          nowSeconds: Math.floor(rt.ctx.clock() / 1000),
          claimJti: async (jti, ttlSeconds) =>
            (
              await rt.ctx.db.query(
                'INSERT INTO pay_token_ids (jti, partner_id, expires_at) VALUES ($1, $2, $3) ON CONFLICT (jti) ' +
                  'DO NOTHING',
                [jti, found.partnerId, new Date(rt.ctx.clock() + ttlSeconds * 1000)],
              )
            ).rowCount === 1,
        });
        if (!result.ok) {
          rt.ctx.logger.debug(
            { path: c.req.path, partnerId: found.partnerId, refusal: result.refusal },
            'wallet token refused',
          );
          if (result.refusal === 'SIGNATURE') await blockAfterRefusedToken(rt, found, body, c.req.path);
          return undefined;
        }
        return found;
      });
      if (partner === undefined) throw refused(tokenHeader);
      c.set(PARTNER_KEY as never, partner as never);
    }
    const type = c.req.header('content-type');
    if (type === undefined || !isJsonMediaType(type)) {
      throw payRefusal('UNSUPPORTED_MEDIA_TYPE', ['content-type: must be application/json']);
    }
    await next();
  };
}
