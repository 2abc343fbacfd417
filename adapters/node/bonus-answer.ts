import type { AcceptedVerification } from '../../src/contracts/barcode.js';
import type { BonusHook } from './config.js';

/**
 * The valid result `accept` builds, with what the bonus hook says for the card: synchronously when the hook answers
 * so, else a promise. A hook that throws or rejects counts as `false`: the password is already claimed, so failing
 * the scan would cost the customer a fresh barcode for a side question.
 */
export function withBonus(
  hook: BonusHook | undefined,
  cardNumber: string,
  accept: (bonusAvailable: boolean) => AcceptedVerification,
): AcceptedVerification | Promise<AcceptedVerification> {
  if (hook === undefined) return accept(true);
  let answer: boolean | Promise<boolean>;
  try {
    answer = hook(cardNumber);
  } catch {
    return accept(false);
  }
  if (typeof (answer as { then?: unknown } | null)?.then === 'function') {
    return Promise.resolve(answer).then(
      (available) => accept(available === true),
      () => accept(false),
    );
  }
  return accept(answer === true);
}
