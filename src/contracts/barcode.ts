/** The four outcomes of section 2.2 of the interface document. */
export type ResultCode = BarcodeVerification['resultCode'];

/**
 * Why a barcode got its result (the README's "Barcodes" table): `OK` for both
 * valid results, `PREFIX_MISMATCH` for ANOTHER_INSTANCE, the rest for
 * VALIDATION_FAILED.
 */
export type VerifyReason = BarcodeVerification['reason'];

/** The reasons of a VALIDATION_FAILED result: unreadable, wrong password, password used, card locked out. */
export type FailureReason = 'MALFORMED' | 'CODE_MISMATCH' | 'REPLAYED' | 'LOCKED';

/** What every result carries, whatever its code. */
interface VerificationBase {
  /** The barcode value as received from the scanner. */
  fullBarcode: string;
}

/**
 * What a valid password adds: the document's fields of a valid result plus
 * which key matched, the clock drift and the bonus hook's answer, always set.
 */
interface Accepted extends VerificationBase {
  totpCodeValid: true;
  cardNumber: string;
  reason: 'OK';
  /** Present (true) only when this answer repeats the first one to the same requester's retry. */
  repeated?: true;
  /** 0 when the current key matched, 1.. for `previousKeys[0..]` (a rotation in progress). */
  keyIndex: number;
  /** The matched time step minus the current one (negative: the phone's clock is behind). */
  driftSteps: number;
  /** What the `bonusAvailable` hook said for the card (true without a hook; false when it threw or rejected). */
  bonusAvailable: boolean;
}

/**
 * What a refused barcode carries: no password was accepted, so none of the
 * valid results' extras. They are declared absent rather than left out so that
 * `result.keyIndex` reads (as `undefined`) on any result without narrowing.
 */
interface Refused extends VerificationBase {
  totpCodeValid: false;
  cardSession: null;
  repeated?: undefined;
  keyIndex?: undefined;
  driftSteps?: undefined;
  bonusAvailable?: undefined;
}

/** Section 2.2, CARDSESSION_AVAILABLE: the password is valid and the barcode has a card session (wallet payment). */
export interface CardSessionAvailable extends Accepted {
  resultCode: 'CARDSESSION_AVAILABLE';
  /** The payment session identifier, for the Pay API's checkout. */
  cardSession: string;
}

/** Section 2.2, CARDSESSION_NOT_AVAILABLE: the password is valid, the barcode has no card session (no wallet pay). */
export interface CardSessionNotAvailable extends Accepted {
  resultCode: 'CARDSESSION_NOT_AVAILABLE';
  cardSession: null;
}

/** Section 2.2, ANOTHER_INSTANCE: the prefix is absent or differs (a card not from the wallet application). */
export interface AnotherInstance extends Refused {
  resultCode: 'ANOTHER_INSTANCE';
  cardNumber: null;
  reason: 'PREFIX_MISMATCH';
}

/**
 * Section 2.2, VALIDATION_FAILED: the barcode is ours but does not verify.
 * `cardNumber` is null only when the barcode is too malformed to read one
 * (`reason` MALFORMED); the document's table says "present" for a readable one.
 */
export interface ValidationFailed extends Refused {
  resultCode: 'VALIDATION_FAILED';
  cardNumber: string | null;
  reason: FailureReason;
}

/** A result whose password was accepted: CARDSESSION_AVAILABLE or CARDSESSION_NOT_AVAILABLE. */
export type AcceptedVerification = CardSessionAvailable | CardSessionNotAvailable;

/** A result whose barcode was refused: ANOTHER_INSTANCE or VALIDATION_FAILED. */
export type RefusedVerification = AnotherInstance | ValidationFailed;

/**
 * The result of `barcodeVerify`, one member per row of section 2.2's table,
 * discriminated by `resultCode`: checking it narrows the other fields (after
 * `resultCode === 'CARDSESSION_AVAILABLE'`, `cardSession` is a string).
 *
 * @example
 * if (result.resultCode === 'CARDSESSION_AVAILABLE') cacheCardSession(result.cardSession);
 */
export type BarcodeVerification = AcceptedVerification | RefusedVerification;

/**
 * How the password is made (the README's "Barcodes" section): `rfc6238` is
 * RFC 6238 TOTP of the partner key (the document read literally); `card-bound`
 * uses a per-card key and binds the card session into the MAC.
 */
export type PasswordScheme = 'rfc6238' | 'card-bound';

export const PASSWORD_SCHEMES: readonly PasswordScheme[] = ['rfc6238', 'card-bound'];

/** The two password algorithms of section 2.1. */
export type Algorythm = 'HMACSHA256' | 'HMACSHA1';

export const ALGORYTHMS: readonly Algorythm[] = ['HMACSHA256', 'HMACSHA1'];
