import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import type { TokenScheme } from '../../contracts/pay/token.js';
import { guardedCheck } from '../../../adapters/http-server/index.js';
import { resolvePartner, type Partner } from './partners.js';
import type { PayRuntime } from './runtime.js';
import { blockAfterRefusedToken } from './refused-token.js';

/**
 * Checks a token of an HMAC scheme (`pay.token`'s `hmac-sha256-hex` / `-base64`): HMAC-SHA256 over the exact body
 * bytes, keyed with the partner key's bytes, compared in constant time. Such a token names no partner, so it is the
 * sandbox's only one; it carries no id or time either, so nothing is remembered of it (as a service computing it
 * so could not). A wrong one blocks the card session the body names, like the kit's. Refusals count against the
 * brute-force limit per address. The partner, or undefined when refused.
 */
export async function hmacTokenPartner(
  rt: PayRuntime,
  c: Context,
  token: string | undefined,
  scheme: Exclude<TokenScheme, 'kit'>,
): Promise<Partner | undefined> {
  const guard = rt.ctx.authLimiter && { limiter: rt.ctx.authLimiter, logger: rt.ctx.logger, realm: 'pay' };
  return guardedCheck(guard, c, undefined, async () => {
    const partner = token === undefined || token.length > 4096 ? undefined : await resolvePartner(rt.ctx.db, undefined);
    if (partner === undefined) {
      rt.ctx.logger.debug({ path: c.req.path, refusal: 'PARTNER' }, 'wallet token refused');
      return undefined;
    }
    const body = new Uint8Array(await c.req.arrayBuffer());
    const mac = createHmac('sha256', Buffer.from(partner.keyHex, 'hex')).update(body).digest();
    const expected = Buffer.from(mac.toString(scheme === 'hmac-sha256-hex' ? 'hex' : 'base64'));
    const presented = Buffer.from(token!);
    if (presented.length === expected.length && timingSafeEqual(presented, expected)) return partner;
    rt.ctx.logger.debug(
      { path: c.req.path, partnerId: partner.partnerId, refusal: 'SIGNATURE' },
      'wallet token refused',
    );
    await blockAfterRefusedToken(rt, partner, body, c.req.path);
    return undefined;
  });
}
