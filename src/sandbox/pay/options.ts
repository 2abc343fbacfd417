import { z } from 'zod';
import { ConfigError } from '../../errors.js';
import { validationErrors } from '../../contracts/validation-errors.js';
import { answerFieldsSchema } from '../../contracts/pay/field-names.js';
import { TOKEN_HEADER } from '../../contracts/pay/errors.js';
import { tokenSchemeSchema } from '../../contracts/pay/token.js';
import { tokenHeaderSchema } from '../../pay/options.js';

const provider = z
  .object({
    providerId: z.string().regex(/^[A-Za-z0-9._:-]{1,64}$/, { error: 'must be 1 to 64 of [A-Za-z0-9._:-]' }),
    name: z.string().min(1).max(200),
  })
  .strict();

const schema = z
  .object({
    cardSessionTtlSeconds: z
      .number()
      .int()
      .min(1)
      .max(86_400 * 30)
      .default(900),
    invoiceTtlSeconds: z.number().int().min(1).max(86_400).default(300),
    sweepIntervalMs: z.number().int().min(10).max(60_000).default(1000),
    providers: z
      .array(provider)
      .min(1)
      .max(20)
      .default([{ providerId: 'wallet', name: 'Wallet Pay' }]),
    /** The Pay API's words; default: the sandbox's (`SandboxOptions.dialect`, itself `kit` by default). */
    dialect: z.enum(['kit', 'foreign'], { error: 'must be kit or foreign' }).optional(),
    /** Refuse (409) a /checkout for a card session whose invoice is still open; default: the sandbox's `strict`. */
    strict: z.boolean().optional(),
    /**
     * How tokens are checked: `kit` (default, the kit's JWS), or `hmac-sha256-hex` / `hmac-sha256-base64` over the
     * body bytes keyed with the partner key's bytes (the only partner's: such a token names none), as another
     * service may compute them.
     */
    tokenScheme: tokenSchemeSchema.default('kit'),
    /** The header the token comes in. Default X-Wallet-Token. */
    tokenHeader: tokenHeaderSchema.default(TOKEN_HEADER),
    /** The answers' field names, the kit's to this service's (`{ "providers": "methods" }`), as in `pay.dialect`. */
    answerFields: answerFieldsSchema.default({}),
  })
  .strict();

/** Options of {@link createPayModule}. */
export type PayModuleOptions = z.input<typeof schema>;

/** Validated options. */
export type ResolvedPayOptions = z.output<typeof schema>;

/**
 * Validates the Pay module's options once. Defaults: card sessions live 900 s
 * (the README's Sandbox section: 15 min), invoices not confirmed within 300 s expire,
 * expiry is swept every 1000 ms (real time; reads also apply it at once), and
 * one provider, `wallet` (a card may be given its own list by the simulator).
 */
export function resolvePayOptions(options: PayModuleOptions = {}): ResolvedPayOptions {
  const parsed = schema.safeParse(options);
  if (!parsed.success) {
    throw new ConfigError(validationErrors(parsed.error, 'pay'), 'pay module options');
  }
  return parsed.data;
}
