/** The four outcomes of section 2.2 of the interface document. */
export type ResultCode =
  | 'CARDSESSION_AVAILABLE'
  | 'ANOTHER_INSTANCE'
  | 'CARDSESSION_NOT_AVAILABLE'
  | 'VALIDATION_FAILED';

/**
 * Why a barcode got its result (the README's Barcodes): `OK` for both valid
 * results, `PREFIX_MISMATCH` for ANOTHER_INSTANCE, the rest for VALIDATION_FAILED.
 */
export type VerifyReason = 'OK' | 'PREFIX_MISMATCH' | 'MALFORMED' | 'CODE_MISMATCH' | 'REPLAYED' | 'LOCKED';

/**
 * The result of `barcodeVerify`: the document's five fields plus `reason`; a
 * valid result also says which key matched, the clock drift, and whether
 * bonus operations are available for the card.
 */
export interface BarcodeVerification {
  resultCode: ResultCode;
  totpCodeValid: boolean;
  cardNumber: string | null;
  cardSession: string | null;
  fullBarcode: string;
  reason: VerifyReason;
  /** Present (true) only when this answer repeats the first one to the same requester's retry. */
  repeated?: boolean;
  /** Valid results: 0 when the current key matched, 1.. for `previousKeys[0..]` (a rotation in progress). */
  keyIndex?: number;
  /** Valid results: the matched time step minus the current one (negative: the phone's clock is behind). */
  driftSteps?: number;
  /** Valid results: what the `bonusAvailable` hook said for the card (true without a hook). */
  bonusAvailable?: boolean;
}

/**
 * How the password is made (the README's Barcodes): `rfc6238` is RFC 6238 TOTP
 * of the partner key (the document read literally); `card-bound` uses a
 * per-card key and binds the card session into the MAC.
 */
export type PasswordScheme = 'rfc6238' | 'card-bound';

export const PASSWORD_SCHEMES: readonly PasswordScheme[] = ['rfc6238', 'card-bound'];

/** The two password algorithms of section 2.1. */
export type Algorythm = 'HMACSHA256' | 'HMACSHA1';

export const ALGORYTHMS: readonly Algorythm[] = ['HMACSHA256', 'HMACSHA1'];
