import type {
  AcceptedVerification,
  AnotherInstance,
  FailureReason,
  ValidationFailed,
} from '../../src/contracts/barcode.js';
import { VerifyCode } from '../core/core.js';

/**
 * The reason a core's refusal gives (section 2.2's VALIDATION_FAILED row); a
 * prefix mismatch is ANOTHER_INSTANCE, answered before this is read.
 */
export const REASON_BY_CODE: Record<number, FailureReason> = {
  [VerifyCode.Malformed]: 'MALFORMED',
  [VerifyCode.CodeMismatch]: 'CODE_MISMATCH',
};

/**
 * The answer to a valid password: which key matched (0 current, 1.. previous)
 * and which step relative to now. One literal, so every valid answer has the
 * same shape.
 */
export function valid(
  fullBarcode: string,
  cardNumber: string,
  cardSession: string | null,
  keyIndex: number,
  driftSteps: number,
  bonusAvailable: boolean,
): AcceptedVerification {
  // The conditional picks the literal, not the type: one object literal (one shape) either way.
  return {
    resultCode: cardSession === null ? 'CARDSESSION_NOT_AVAILABLE' : 'CARDSESSION_AVAILABLE',
    totpCodeValid: true,
    cardNumber,
    cardSession,
    fullBarcode,
    reason: 'OK',
    keyIndex,
    driftSteps,
    bonusAvailable,
  } as AcceptedVerification;
}

/** The answer to a barcode of this instance that does not verify. */
export function failed(fullBarcode: string, cardNumber: string | null, reason: FailureReason): ValidationFailed {
  return { resultCode: 'VALIDATION_FAILED', totpCodeValid: false, cardNumber, cardSession: null, fullBarcode, reason };
}

/** The answer to a barcode of another instance (its prefix differs). */
export function anotherInstance(fullBarcode: string): AnotherInstance {
  return {
    resultCode: 'ANOTHER_INSTANCE',
    totpCodeValid: false,
    cardNumber: null,
    cardSession: null,
    fullBarcode,
    reason: 'PREFIX_MISMATCH',
  };
}
