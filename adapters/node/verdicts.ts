import type { BarcodeVerification, VerifyReason } from '../../src/contracts/barcode.js';
import { VerifyCode } from './core.js';

/** The reason a core's refusal gives (section 2.2's VALIDATION_FAILED rows). */
export const REASON_BY_CODE: Record<number, VerifyReason> = {
  [VerifyCode.PrefixMismatch]: 'PREFIX_MISMATCH',
  [VerifyCode.Malformed]: 'MALFORMED',
  [VerifyCode.CodeMismatch]: 'CODE_MISMATCH',
};

/**
 * The answer to a valid password: which key matched (0 current, 1.. previous)
 * and which step relative to now. One literal, so every valid answer has the
 * same shape.
 */
export function valid(
  fullBarcode: string, cardNumber: string, cardSession: string | null, keyIndex: number, driftSteps: number, bonusAvailable: boolean,
): BarcodeVerification {
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
  };
}

/** The answer to a barcode of this instance that does not verify. */
export function failed(fullBarcode: string, cardNumber: string | null, reason: VerifyReason): BarcodeVerification {
  return { resultCode: 'VALIDATION_FAILED', totpCodeValid: false, cardNumber, cardSession: null, fullBarcode, reason };
}

/** The answer to a barcode of another instance (its prefix differs). */
export function anotherInstance(fullBarcode: string): BarcodeVerification {
  return {
    resultCode: 'ANOTHER_INSTANCE', totpCodeValid: false, cardNumber: null, cardSession: null, fullBarcode,
    reason: 'PREFIX_MISMATCH',
  };
}
