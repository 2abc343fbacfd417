import { z } from 'zod';

/**
 * The cash desk server's contract (the README's Cash desk server): one set of schemas
 * for the HTTP adapter, the WebSocket bridge's params, and the OpenAPI document.
 */

/**
 * Longest barcode text accepted over the wire. The core reads at most 1 KiB
 * and answers VALIDATION_FAILED past it; the cap only bounds what a transport
 * carries, so every transport gives the embedding's answer up to it.
 */
export const MAX_BARCODE_LENGTH = 16_384;

export const VerifyRequest = z
  .object({
    fullBarcode: z
      .string({ error: 'must be a string' })
      .max(MAX_BARCODE_LENGTH, { error: `must be at most ${MAX_BARCODE_LENGTH} characters` })
      .meta({
        example: 'CM;4000123412341234;AB12CD34;04067162',
        description: 'The barcode value as received from the scanner.',
      }),
  })
  .strict()
  .meta({ id: 'VerifyRequest' });

const fullBarcode = z.string().meta({ description: 'The barcode value as received from the scanner.' });

/** The fields of a result whose password was accepted (the first two rows of section 2.2's table). */
const accepted = {
  totpCodeValid: z.literal(true),
  cardNumber: z.string(),
  fullBarcode,
  reason: z.literal('OK'),
  repeated: z
    .literal(true)
    .optional()
    .meta({
      description:
        'true when this answer repeats the first one: the same till asked again about the same barcode while its ' +
        'password is valid (a retry after a lost answer). Absent otherwise; another till gets REPLAYED.',
    }),
  keyIndex: z
    .number()
    .int()
    .min(0)
    .meta({ description: '0 when the current key matched, 1.. for the previous keys of a rotation, in order.' }),
  driftSteps: z
    .number()
    .int()
    .meta({ description: "The matched time step minus the current one (the phone's clock drift, in steps)." }),
  bonusAvailable: z
    .boolean()
    .meta({ description: "Whether bonus operations are available for the card (the merchant's hook, else true)." }),
};

/** The fields of a refused barcode (the last two rows of section 2.2's table). */
const refused = { totpCodeValid: z.literal(false), cardSession: z.null(), fullBarcode };

// One schema per row of section 2.2's table, discriminated by resultCode: the TypeScript union of
// BarcodeVerification, described member by member so a client's generator narrows as the kit's types do.
export const CardSessionAvailable = z
  .object({
    resultCode: z.literal('CARDSESSION_AVAILABLE'),
    ...accepted,
    cardSession: z.string().meta({ description: 'The payment session identifier, for the Pay API checkout.' }),
  })
  .meta({ id: 'CardSessionAvailable', description: 'The password is valid and the barcode carries a card session.' });

export const CardSessionNotAvailable = z
  .object({
    resultCode: z.literal('CARDSESSION_NOT_AVAILABLE'),
    ...accepted,
    cardSession: z.null(),
  })
  .meta({
    id: 'CardSessionNotAvailable',
    description: 'The password is valid; the barcode has no card session (no wallet payment).',
  });

export const AnotherInstance = z
  .object({
    resultCode: z.literal('ANOTHER_INSTANCE'),
    ...refused,
    cardNumber: z.null(),
    reason: z.literal('PREFIX_MISMATCH'),
  })
  .meta({
    id: 'AnotherInstance',
    description: 'The prefix is absent or differs: a card not from the wallet application.',
  });

export const ValidationFailed = z
  .object({
    resultCode: z.literal('VALIDATION_FAILED'),
    ...refused,
    cardNumber: z
      .string()
      .nullable()
      .meta({ description: 'The card number when the barcode is readable; null only for a MALFORMED one.' }),
    reason: z.enum(['MALFORMED', 'CODE_MISMATCH', 'REPLAYED', 'LOCKED']),
  })
  .meta({
    id: 'ValidationFailed',
    description: 'The barcode is of this instance but does not verify; `reason` says why.',
  });

export const Verification = z
  .discriminatedUnion('resultCode', [CardSessionAvailable, CardSessionNotAvailable, AnotherInstance, ValidationFailed])
  .meta({ id: 'Verification', description: 'The result of a barcode verification (section 2.2), by `resultCode`.' });

/**
 * Most barcodes in one `POST /v1/barcode/verify-batch` body. Bounds the work
 * one request can ask for (256 verifications, well under a millisecond); the
 * body limit applies on top, so long barcodes fit fewer.
 */
export const MAX_VERIFY_BATCH = 256;

export const VerifyBatchRequest = z
  .object({
    fullBarcodes: z
      .array(VerifyRequest.shape.fullBarcode, { error: 'must be an array of strings' })
      .min(1, { error: 'must hold at least 1 barcode' })
      .max(MAX_VERIFY_BATCH, { error: `must hold at most ${MAX_VERIFY_BATCH} barcodes` })
      .meta({
        example: ['CM;4000123412341234;AB12CD34;04067162', 'CM;4000123412341235;CD34EF56;91520386'],
        description: `The barcode values as received from the scanner, 1 to ${MAX_VERIFY_BATCH}.`,
      }),
  })
  .strict()
  .meta({ id: 'VerifyBatchRequest' });

export const VerifyBatchResponse = z
  .object({
    results: z.array(Verification).meta({
      description:
        'One `Verification` per barcode, in the order sent, each as `POST /v1/barcode/verify` would answer it ' +
        '(a barcode sent twice in one batch by the same till: the second is the `repeated` answer).',
    }),
  })
  .meta({ id: 'VerifyBatchResponse' });

export const TokenRequest = z
  .object({
    requestData: z
      .string({ error: 'must be a string: the JSON text of the request body' })
      .meta({ example: '{"requestId":"r-1","cardSession":"AB12CD34","totalAmount":1000}' }),
  })
  .strict()
  .meta({ id: 'TokenRequest' });

export const TokenResponse = z
  .object({
    token: z.string().meta({ description: 'The value for the X-Wallet-Token header.' }),
  })
  .meta({ id: 'TokenResponse' });

/** The answer of `POST /v1/tickets`: a one-use credential for the bridge's upgrade (`/ws?ticket=`). */
export const TicketResponse = z
  .object({
    ticket: z.string().meta({ description: 'Put as `?ticket=` on the `/ws` upgrade; accepted once.' }),
    expiresAt: z.string().meta({ description: 'RFC 3339 time after which the ticket is refused (30 s on).' }),
  })
  .meta({ id: 'TicketResponse' });

export const Health = z
  .object({
    status: z.literal('ok'),
    backend: z.enum(['wasm', 'native']),
    version: z.string(),
    uptimeSeconds: z.number().int(),
  })
  .meta({ id: 'Health' });
