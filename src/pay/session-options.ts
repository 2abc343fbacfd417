import { z } from 'zod';
import { CardSession, Offer } from '../contracts/pay/bodies.js';
import { Item } from '../contracts/pay/items.js';
import { ConfigError } from '../errors.js';
import type { PaymentSessionOptions } from './session-types.js';
import { validationErrors } from '../contracts/validation-errors.js';

const ms = z.number().int().min(1).max(3_600_000, { error: 'must be an integer number of ms from 1 to 3600000' });

const schema = z
  .object({
    cardSession: CardSession,
    basket: z.object({
      items: z.array(Item).min(1, { error: 'must list at least one item' }).max(1000),
      discountAmount: z.number().int().min(0).optional(),
    }),
    pollIntervalMs: ms.optional(),
    availability: z.enum(['task', 'info'], { error: 'must be task or info' }).optional(),
    offers: z.array(Offer).max(20).optional(),
    maxRescans: z.number().int().min(0).max(5, { error: 'must be an integer from 0 to 5' }).optional(),
    recovery: z
      .object({ rounds: z.number().int().min(0).max(20).optional(), baseMs: ms.optional(), maxMs: ms.optional() })
      .strict()
      .optional(),
  })
  .strip();

/** Checks a session's options once, at creation; every bad field is named (values never echoed). */
export function checkSessionOptions(options: PaymentSessionOptions): void {
  const issues: string[] = [];
  const parsed = schema.safeParse(options);
  if (!parsed.success) issues.push(...validationErrors(parsed.error, 'options'));
  if (typeof options.client?.checkout !== 'function') issues.push('client: must be a PayClient (createPayClient)');
  if (options.offers !== undefined && options.client?.profile === 'document') {
    issues.push("offers: the kit's extension; a client with profile 'document' never sends it");
  }
  if (typeof options.rescan !== 'function') issues.push('rescan: must be a function resolving to the new cardSession');
  for (const name of ['newId', 'sleep', 'random', 'onEvent'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') issues.push(`${name}: must be a function`);
  }
  if (issues.length > 0) throw new ConfigError(issues, 'payment session options');
}
