import { z } from 'zod';
import type { Counter } from './metrics.js';

/**
 * Where the cash desk server asks whether bonus operations are available for
 * a card (the document: the verifier "checks whether bonus operations are
 * available for the card"): a GET to the merchant's loyalty system.
 */
export const bonusSection = z
  .object({
    /**
     * `{cardNumber}` is replaced by the card number (URL-encoded). 2xx: available (or the body's boolean
     * `available`); 404 or 410: not available; anything else, or no answer in time: not available, counted as an error.
     */
    url: z
      .url({ error: 'must be an http(s) URL, {cardNumber} standing for the card number' })
      .refine((u) => /^https?:\/\//.test(u), {
        error: 'must be an http(s) URL, {cardNumber} standing for the card number',
      }),
    timeoutMs: z.number().int().min(10).max(10_000, { error: 'must be an integer from 10 to 10000' }).default(300),
    /** Basic credentials, e.g. those the default Loyalty server accepts. */
    login: z
      .string()
      .min(1)
      .max(256)
      .refine((s) => !s.includes(':'), { error: 'must not contain ":"' })
      .optional(),
    password: z.string().min(1).max(1024).optional(),
  })
  .strict()
  .refine((b) => (b.login === undefined) === (b.password === undefined), { error: 'login and password go together' });

/** A validated `bonus` section. */
export type BonusConfig = z.output<typeof bonusSection>;

/** How a bonus check ended, for the metric. */
export type BonusOutcome = 'available' | 'unavailable' | 'error';

/**
 * The verifier's `bonusAvailable` hook over HTTP. Never throws: an error or a
 * timeout says "not available" (the scan itself stays valid) and is counted.
 *
 * @example
 * createVerifier({
 *   ...config,
 *   bonusAvailable: httpBonusHook({ url: 'https://loyalty.example/cards/{cardNumber}/bonus', timeoutMs: 300 }),
 * })
 */
export function httpBonusHook(
  config: BonusConfig,
  checks?: Counter,
  fetchImpl: typeof fetch = fetch,
): (cardNumber: string) => Promise<boolean> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (config.login !== undefined) {
    headers.authorization = `Basic ${Buffer.from(`${config.login}:${config.password}`).toString('base64')}`;
  }
  const count = (outcome: BonusOutcome): boolean => {
    checks?.inc({ outcome });
    return outcome === 'available';
  };
  return async (cardNumber) => {
    const url = config.url.replaceAll('{cardNumber}', encodeURIComponent(cardNumber));
    try {
      const response = await fetchImpl(url, { headers, signal: AbortSignal.timeout(config.timeoutMs) });
      if (response.status === 404 || response.status === 410) {
        await response.body?.cancel();
        return count('unavailable');
      }
      if (response.status < 200 || response.status >= 300) {
        await response.body?.cancel();
        return count('error');
      }
      const body = await response.text();
      const available = readAvailable(body);
      return count(available ? 'available' : 'unavailable');
    } catch {
      return count('error');
    }
  };
}

/** A 2xx body's `available` (or `bonusAvailable`) when it is a boolean; otherwise the 2xx itself says yes. */
function readAvailable(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (typeof parsed === 'object' && parsed !== null) {
      for (const field of ['available', 'bonusAvailable']) {
        const value = (parsed as Record<string, unknown>)[field];
        if (typeof value === 'boolean') return value;
      }
    }
  } catch {
    // not JSON: the status alone answers
  }
  return true;
}
