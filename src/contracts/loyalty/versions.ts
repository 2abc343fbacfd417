/** One release of the Loyalty API (interface document section 9). */
export interface LoyaltyApiVersion {
  version: string;
  date: string;
  change: string;
}

/** The Loyalty API's version history, word for word from the interface document (section 9). */
export const LOYALTY_API_VERSIONS: readonly LoyaltyApiVersion[] = [
  { version: '1.1.0', date: '2023-08-07', change: 'Added POST /v1/promo/qrCode' },
  { version: '1.2.0', date: '2023-12-04', change: 'Added POST /v1/card/anonymous' },
  { version: '1.3.0', date: '2024-05-22', change: 'Added POST /v1/promo/code' },
  {
    version: '1.4.0',
    date: '2025-03-18',
    change: 'Added GET /v1/card/{cardNumber}/categories, GET and POST /v1/card/{cardNumber}/categories/favorite',
  },
];

/** The current Loyalty API version: the last of the history. */
export const LOYALTY_API_VERSION = '1.4.0';
