import type { LoyaltyTransportOptions } from '../client/transport.js';
import { startCheckRun, type CheckRun } from './check-run.js';
import { CheckFailure, check } from './expect.js';
import { SUBJECTS, type ConformanceSubject, type SubjectCheck, type SubjectNeeds } from './subjects.js';
import type { ConformanceReport, ConformanceResult } from './types.js';

export type { ConformanceReport, ConformanceResult, ConformanceSubject } from './types.js';

/** Options of {@link runConformanceCheck}. */
export type ConformanceOptions = LoyaltyTransportOptions & {
  /** Now, in ms, for the receipts it makes up. Default `Date.now`. */
  clock?: () => number;
};

/**
 * Checks a merchant's Loyalty server against the contract, as the wallet
 * service would call it, creating its own data through the API only: a card
 * (issued twice and concurrently with one requestId: one card), the listed
 * categories (favourites round trip; unknown ids and too many refused with
 * nothing stored), a bogus promo code (INVALID), a fresh random receipt
 * (ACCEPTED, then DUPLICATE; or INVALID if the merchant does not take it), a
 * malformed QR (400 naming qrCode), unknown cards (404), missing and wrong
 * credentials (401). It leaves behind the cards it issued and the receipt it sent.
 *
 * @example
 * const report = await runConformanceCheck({ baseUrl: 'http://127.0.0.1:8091', login, password });
 * for (const line of formatConformanceReport(report)) console.log(line); // from ./format.js
 */
export async function runConformanceCheck(options: ConformanceOptions): Promise<ConformanceReport> {
  const run = startCheckRun(options, options.clock ?? Date.now);
  const results: ConformanceResult[] = [];
  for (const [name, needs, body] of SUBJECTS) results.push(await checkSubject(run, name, needs, body));
  return { ok: results.every((r) => r.ok), results };
}

/** Runs one subject's checks into its verdict: a failure (or any error) fails that subject only. */
async function checkSubject(
  run: CheckRun,
  name: ConformanceSubject,
  needs: SubjectNeeds,
  body: SubjectCheck,
): Promise<ConformanceResult> {
  const notes: string[] = [];
  try {
    if (needs === 'card') check(run.cardNumber !== undefined, 'not run: no card (issueAnonymousCard failed)');
    if (needs === 'groups') check(run.groups !== undefined, 'not run: no category list (listCategories failed)');
    await body(run, notes);
    return { subject: name, ok: true, notes };
  } catch (error) {
    const reason =
      error instanceof CheckFailure ? error.message : `${(error as Error).name}: ${(error as Error).message}`;
    return { subject: name, ok: false, reason, notes };
  }
}
