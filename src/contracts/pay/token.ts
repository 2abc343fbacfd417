import { z } from 'zod';

/**
 * How the token of a Pay API call is computed. The interface document leaves
 * the computation "not shown" (section 4), so it is configuration:
 *
 * - `kit` (default): the kit's JWS (HS256, detached body, `kid`, `iat`, `jti`), as the sandbox checks it;
 * - `hmac-sha256-hex` / `hmac-sha256-base64`: HMAC-SHA256 over the exact body bytes, keyed with the partner
 *   key's bytes, as lower-case hex or standard base64.
 */
export const TOKEN_SCHEMES = ['kit', 'hmac-sha256-hex', 'hmac-sha256-base64'] as const;

/** One of {@link TOKEN_SCHEMES}. */
export type TokenScheme = (typeof TOKEN_SCHEMES)[number];

/** `pay.token`'s scheme form. */
export const tokenSchemeSchema = z.enum(TOKEN_SCHEMES, { error: `must be one of ${TOKEN_SCHEMES.join(', ')}` });

/**
 * `pay.token`'s rule: `{ "scheme": ... }`, or `{ "module": "<path>" }`, an ES module exporting
 * `sign(bodyText, keyHex)` that answers the token (a string, at once or through a promise).
 */
export const payTokenSchema = z.union(
  [
    z.object({ scheme: tokenSchemeSchema }).strict(),
    z
      .object({
        module: z
          .string({ error: 'must be the path of an ES module' })
          .min(1, { error: 'must be the path of an ES module' })
          .max(4096, { error: 'must be at most 4096 characters' }),
      })
      .strict(),
  ],
  { error: 'must be { "scheme": "kit" | "hmac-sha256-hex" | "hmac-sha256-base64" } or { "module": "<path>" }' },
);

/** `pay.token` as configured. */
export type PayTokenConfig = z.output<typeof payTokenSchema>;

/** The default `pay.token`: the kit's own scheme. */
export const DEFAULT_PAY_TOKEN: PayTokenConfig = { scheme: 'kit' };

/** How a token configuration is named in messages and reports: its scheme, or `module <path>`. */
export function tokenSignerName(config: PayTokenConfig): string {
  return 'scheme' in config ? config.scheme : `module ${config.module}`;
}
