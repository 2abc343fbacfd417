import type { BarcodeVerification } from '../../contracts/barcode.js';
import { PaymentsError } from './errors.js';

/**
 * The scan a payment takes: verified on behalf of the till whose intent it is, it must bring a card session
 * (CARDSESSION_AVAILABLE), and be of the payment's card when the payment already has one (a rescan).
 *
 * @throws PaymentsError `BARCODE_REFUSED` naming why.
 */
export async function scanForPayment(
  verify: (fullBarcode: string, tillId: string) => Promise<BarcodeVerification>,
  tillId: string,
  fullBarcode: string,
  cardNumber: string | undefined,
): Promise<{ cardSession: string; cardNumber: string | undefined }> {
  const result = await verify(fullBarcode, tillId);
  if (result.resultCode !== 'CARDSESSION_AVAILABLE' || result.cardSession === null) {
    throw new PaymentsError(
      'BARCODE_REFUSED',
      `the barcode allows no wallet payment: ${result.resultCode} (${result.reason})`,
      [`fullBarcode: ${result.resultCode} (${result.reason})`],
    );
  }
  if (cardNumber !== undefined && result.cardNumber !== cardNumber) {
    throw new PaymentsError('BARCODE_REFUSED', "the barcode is another card's", [
      "fullBarcode: must be the payment's card",
    ]);
  }
  return { cardSession: result.cardSession, cardNumber: result.cardNumber ?? undefined };
}
