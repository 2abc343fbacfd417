/** `barcode.verify`'s answer (document section 2.2, plus the kit's `reason`). */
export interface Verification {
  resultCode: 'CARDSESSION_AVAILABLE' | 'CARDSESSION_NOT_AVAILABLE' | 'ANOTHER_INSTANCE' | 'VALIDATION_FAILED';
  totpCodeValid: boolean;
  cardNumber: string | null;
  cardSession: string | null;
  fullBarcode: string;
  reason?: string;
  bonusAvailable?: boolean;
  repeated?: boolean;
}

/** What the operator does and says for a verification result (document section 7, "Verification results"). */
export function instruction(v: Verification): { kind: 'ok' | 'warn' | 'error' | 'info'; title: string; say: string } {
  switch (v.resultCode) {
    case 'CARDSESSION_AVAILABLE':
      return {
        kind: 'ok',
        title: `Card ${v.cardNumber}: wallet payment available`,
        say:
          v.bonusAvailable === false
            ? 'Bonus operations are not available for this card; the customer may pay with the wallet.'
            : "Apply the card's bonuses; the customer may pay with the wallet (one scan serves both).",
      };
    case 'CARDSESSION_NOT_AVAILABLE':
      return {
        kind: 'warn',
        title: `Card ${v.cardNumber}: no wallet payment`,
        say: 'Continue with bonus operations, without wallet payment.',
      };
    case 'ANOTHER_INSTANCE':
      return {
        kind: 'info',
        title: 'Not a card of the wallet application',
        say: 'Continue as with any other card: no loyalty bonus operations, no wallet payment.',
      };
    default: {
      const why =
        v.reason === 'REPLAYED'
          ? 'This barcode was used already.'
          : v.reason === 'LOCKED'
            ? 'Too many wrong barcodes for this card: it is locked for a while.'
            : v.reason === 'MALFORMED'
              ? 'The barcode is not in the expected form.'
              : 'The password is wrong or too old.';
      return {
        kind: 'error',
        title: 'Validation failed',
        say: `${why} Tell the customer that operations with the card are impossible.`,
      };
    }
  }
}
