/** The four outcomes of section 2.2 of the interface document. */
export type ResultCode =
  | 'CARDSESSION_AVAILABLE'
  | 'ANOTHER_INSTANCE'
  | 'CARDSESSION_NOT_AVAILABLE'
  | 'VALIDATION_FAILED';

/**
 * Why a barcode got its result (DESIGN.md section 2): `OK` for both valid
 * results, `PREFIX_MISMATCH` for ANOTHER_INSTANCE, the rest for VALIDATION_FAILED.
 */
export type VerifyReason = 'OK' | 'PREFIX_MISMATCH' | 'MALFORMED' | 'CODE_MISMATCH' | 'REPLAYED' | 'LOCKED';

/** The result of `barcodeVerify`: the document's five fields plus `reason`. */
export interface BarcodeVerification {
  resultCode: ResultCode;
  totpCodeValid: boolean;
  cardNumber: string | null;
  cardSession: string | null;
  fullBarcode: string;
  reason: VerifyReason;
  /** Present (true) only when this answer repeats the first one to the same requester's retry. */
  repeated?: boolean;
}

/** The two password algorithms of section 2.1. */
export type Algorythm = 'HMACSHA256' | 'HMACSHA1';

export const ALGORYTHMS: readonly Algorythm[] = ['HMACSHA256', 'HMACSHA1'];
