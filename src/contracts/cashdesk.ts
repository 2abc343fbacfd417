import { z } from '@hono/zod-openapi';

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

export const VerifyRequest = z.object({
  fullBarcode: z.string({ error: 'must be a string' })
    .max(MAX_BARCODE_LENGTH, { error: `must be at most ${MAX_BARCODE_LENGTH} characters` })
    .openapi({ example: 'CM;4000123412341234;AB12CD34;04067162', description: 'The barcode value as received from the scanner.' }),
}).strict().openapi('VerifyRequest');

export const Verification = z.object({
  resultCode: z.enum(['CARDSESSION_AVAILABLE', 'ANOTHER_INSTANCE', 'CARDSESSION_NOT_AVAILABLE', 'VALIDATION_FAILED']),
  totpCodeValid: z.boolean(),
  cardNumber: z.string().nullable(),
  cardSession: z.string().nullable(),
  fullBarcode: z.string(),
  reason: z.enum(['OK', 'PREFIX_MISMATCH', 'MALFORMED', 'CODE_MISMATCH', 'REPLAYED', 'LOCKED']),
  repeated: z.boolean().optional().openapi({
    description: 'true when this answer repeats the first one: the same till asked again about the same barcode while its '
      + 'password is valid (a retry after a lost answer). Absent otherwise; another till gets REPLAYED.',
  }),
  keyIndex: z.number().int().min(0).optional()
    .openapi({ description: 'Valid results: 0 when the current key matched, 1.. for the previous keys of a rotation, in order.' }),
  driftSteps: z.number().int().optional()
    .openapi({ description: "Valid results: the matched time step minus the current one (the phone's clock drift, in steps)." }),
  bonusAvailable: z.boolean().optional()
    .openapi({ description: "Valid results: whether bonus operations are available for the card (the merchant's hook; true without one)." }),
}).openapi('Verification');

/**
 * Most barcodes in one `POST /v1/barcode/verify-batch` body. Bounds the work
 * one request can ask for (256 verifications, well under a millisecond); the
 * body limit applies on top, so long barcodes fit fewer.
 */
export const MAX_VERIFY_BATCH = 256;

export const VerifyBatchRequest = z.object({
  fullBarcodes: z.array(VerifyRequest.shape.fullBarcode, { error: 'must be an array of strings' })
    .min(1, { error: 'must hold at least 1 barcode' })
    .max(MAX_VERIFY_BATCH, { error: `must hold at most ${MAX_VERIFY_BATCH} barcodes` })
    .openapi({
      example: ['CM;4000123412341234;AB12CD34;04067162', 'CM;4000123412341235;CD34EF56;91520386'],
      description: `The barcode values as received from the scanner, 1 to ${MAX_VERIFY_BATCH}.`,
    }),
}).strict().openapi('VerifyBatchRequest');

export const VerifyBatchResponse = z.object({
  results: z.array(Verification).openapi({
    description: 'One `Verification` per barcode, in the order sent, each as `POST /v1/barcode/verify` would answer it '
      + '(a barcode sent twice in one batch by the same till: the second is the `repeated` answer).',
  }),
}).openapi('VerifyBatchResponse');

export const TokenRequest = z.object({
  requestData: z.string({ error: 'must be a string: the JSON text of the request body' })
    .openapi({ example: '{"requestId":"r-1","cardSession":"AB12CD34","totalAmount":1000}' }),
}).strict().openapi('TokenRequest');

export const TokenResponse = z.object({
  token: z.string().openapi({ description: 'The value for the X-Wallet-Token header.' }),
}).openapi('TokenResponse');

export const Health = z.object({
  status: z.literal('ok'),
  backend: z.enum(['wasm', 'native']),
  version: z.string(),
  uptimeSeconds: z.number().int(),
}).openapi('Health');
