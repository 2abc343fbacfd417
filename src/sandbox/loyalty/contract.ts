import { createRoute, z } from '@hono/zod-openapi';
import { CardSessionText } from '../../contracts/card-identifiers.js';
import { ErrorEnvelope } from '../../contracts/errors.js';
import {
  AnonymousCardResponse,
  CardNumber,
  CategoriesResponse,
  FavoritesResponse,
  PromoCodeResponse,
  ReceiptQrResponse,
  SetFavoritesRequest,
} from '../../contracts/loyalty/index.js';
import { singleLine } from '../../contracts/text.js';

/** How the target merchant's barcodes are laid out (its verifier's parameters, without the key). */
export const BarcodeLayout = z
  .object({
    algorythm: z.enum(['HMACSHA256', 'HMACSHA1']),
    passLength: z.number().int().min(1).max(10),
    prefix: singleLine(z.string().min(1).max(16)),
    interval: z.number().int().min(1).max(86_400),
    delimeter: singleLine(z.string().min(1).max(4)),
  })
  .strict()
  .openapi('SandboxBarcodeLayout');

/**
 * The layout plus, for rfc6238 merchants (cards without a cardKey), the partner key the app draws with; never shown
 * back.
 */
export const TargetBarcode = BarcodeLayout.extend({
  key: z
    .string()
    .regex(/^(?:[0-9a-fA-F]{2}){16,1024}$/, { error: 'must be hex of 16 to 1024 bytes' })
    .optional()
    .openapi({
      description: 'The partner key, for drawing barcodes of cards issued without a cardKey (rfc6238). Write-only.',
    }),
})
  .strict()
  .openapi('SandboxTargetBarcode');

export const TargetRequest = z
  .object({
    url: singleLine(
      z
        .url({ error: "must be the merchant Loyalty server's http(s) URL" })
        .regex(/^https?:\/\//, { error: 'must be http or https' })
        .max(2048),
    ),
    login: singleLine(z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(256)),
    password: singleLine(z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(1024)),
    barcode: TargetBarcode.optional().openapi({ description: 'Default: the layout (and key) of demoConfig.verifier.' }),
  })
  .strict()
  .openapi('SandboxLoyaltyTargetRequest');
export const Target = z
  .object({ url: z.string(), login: z.string(), barcode: BarcodeLayout })
  .openapi('SandboxLoyaltyTarget');

export const IssueRequest = z
  .object({
    requestId: z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,64}$/, { error: 'must be 1 to 64 of [A-Za-z0-9._:-]' })
      .optional()
      .openapi({ description: "Default: a new one. Give one to watch the merchant's idempotency." }),
  })
  .strict()
  .openapi('SandboxIssueRequest');
export const IssuedCard = AnonymousCardResponse.extend({ requestId: z.string(), issuedAt: z.string() }).openapi(
  'SandboxIssuedCard',
);
export const CardList = z.object({ cards: z.array(IssuedCard) }).openapi('SandboxCardList');
export const BarcodeQuery = z.object({
  cardSession: CardSessionText.optional().meta({ param: { name: 'cardSession', in: 'query' } }),
});
export const Barcode = z.object({ fullBarcode: z.string() }).openapi('SandboxBarcode');
export const PromoRequest = z
  .object({ code: singleLine(z.string({ error: 'must be a string' }).max(256)) })
  .strict()
  .openapi('SandboxPromoRequest');
export const ReceiptRequest = z
  .object({
    qrCode: singleLine(z.string({ error: 'must be a string' }).max(1024))
      .optional()
      .openapi({
        description: 'The scanned string. Default: a fresh purchase receipt made up now (random fiscal numbers).',
      }),
    sum: z
      .number()
      .int()
      .min(0)
      .max(1e11)
      .optional()
      .openapi({ description: 'Kopecks, for the made-up receipt. Default 100000.' }),
  })
  .strict()
  .openapi('SandboxReceiptRequest');
export const ReceiptAnswer = ReceiptQrResponse.extend({ qrCode: z.string() }).openapi('SandboxReceiptAnswer');
export const CheckRequest = z
  .object({
    url: singleLine(z.url().max(2048)).optional(),
    login: singleLine(z.string().min(1).max(256)).optional(),
    password: singleLine(z.string().max(1024)).optional(),
  })
  .strict()
  .openapi('SandboxCheckRequest');
export const CheckAnswer = z
  .object({
    ok: z.boolean(),
    results: z.array(
      z.object({ subject: z.string(), ok: z.boolean(), reason: z.string().optional(), notes: z.array(z.string()) }),
    ),
    lines: z.array(z.string()),
  })
  .openapi('SandboxCheckAnswer');

const CardParam = z.object({ cardNumber: CardNumber.meta({ param: { name: 'cardNumber', in: 'path' } }) });
const tags = ['Sandbox: Loyalty driver'];
const json = <T>(schema: T) => ({ content: { 'application/json': { schema } } });
const errors = {
  400: { description: 'Bad input (`BAD_REQUEST`).', ...json(ErrorEnvelope) },
  409: {
    description: 'No target configured (`TARGET_NOT_CONFIGURED`): PUT /sandbox/loyalty/target first.',
    ...json(ErrorEnvelope),
  },
  502: {
    description:
      'The merchant refused (`MERCHANT_ERROR`: first line its status and code, then its lines), could not be reached ' +
      '(`MERCHANT_UNREACHABLE`) or answered off-contract (`MERCHANT_OFF_CONTRACT`).',
    ...json(ErrorEnvelope),
  },
};
const ok = <T>(schema: T, description: string) => ({ 200: { description, ...json(schema) } });
const body = <T>(schema: T) => ({ body: { required: true, ...json(schema) } });
const base = '/sandbox/loyalty';
const card = `${base}/cards/{cardNumber}`;

export const driverRoutes = {
  putTarget: createRoute({
    method: 'put',
    path: `${base}/target`,
    tags,
    summary: 'Set the merchant Loyalty server the sandbox calls',
    request: body(TargetRequest),
    responses: { ...ok(Target, 'The target (no password).'), 400: errors[400] },
  }),
  getTarget: createRoute({
    method: 'get',
    path: `${base}/target`,
    tags,
    summary: 'The merchant Loyalty server the sandbox calls',
    responses: { ...ok(Target, 'The target (no password).'), 409: errors[409] },
  }),
  issue: createRoute({
    method: 'post',
    path: `${base}/cards`,
    tags,
    summary: 'Ask the merchant for an anonymous card, as the wallet does',
    request: body(IssueRequest),
    responses: { ...ok(IssuedCard, 'The card, kept for the simulator.'), ...errors },
  }),
  list: createRoute({
    method: 'get',
    path: `${base}/cards`,
    tags,
    summary: 'Cards the sandbox was issued',
    responses: ok(CardList, 'Newest first.'),
  }),
  barcode: createRoute({
    method: 'get',
    path: `${card}/barcode`,
    tags,
    summary: 'Draw the barcode of an issued card, as the wallet app does',
    request: { params: CardParam, query: BarcodeQuery },
    responses: {
      ...ok(Barcode, 'Valid for the current interval.'),
      404: { description: 'Not a card the sandbox was issued (`NOT_FOUND`).', ...json(ErrorEnvelope) },
      ...errors,
    },
  }),
  categories: createRoute({
    method: 'get',
    path: `${card}/categories`,
    tags,
    summary: 'Fetch the category lists from the merchant',
    request: { params: CardParam },
    responses: { ...ok(CategoriesResponse, "The merchant's answer."), ...errors },
  }),
  getFavorites: createRoute({
    method: 'get',
    path: `${card}/favorites`,
    tags,
    summary: 'Fetch the favourites from the merchant',
    request: { params: CardParam },
    responses: { ...ok(FavoritesResponse, "The merchant's answer."), ...errors },
  }),
  setFavorites: createRoute({
    method: 'post',
    path: `${card}/favorites`,
    tags,
    summary: 'Pick favourites, as the user does in the app',
    request: { params: CardParam, ...body(SetFavoritesRequest) },
    responses: { ...ok(FavoritesResponse, "The merchant's answer."), ...errors },
  }),
  promo: createRoute({
    method: 'post',
    path: `${card}/promo-code`,
    tags,
    summary: 'Enter a promo code, as the user does in the app',
    request: { params: CardParam, ...body(PromoRequest) },
    responses: { ...ok(PromoCodeResponse, "The merchant's answer."), ...errors },
  }),
  receipt: createRoute({
    method: 'post',
    path: `${card}/receipt`,
    tags,
    summary: 'Scan a receipt QR code, as the user does in the app',
    request: { params: CardParam, ...body(ReceiptRequest) },
    responses: { ...ok(ReceiptAnswer, "The merchant's answer and the string sent."), ...errors },
  }),
  check: createRoute({
    method: 'post',
    path: `${base}/check`,
    tags,
    summary: 'Run the conformance check against the target (or the URL given)',
    request: body(CheckRequest),
    responses: { ...ok(CheckAnswer, 'PASS/FAIL per operation.'), 400: errors[400], 409: errors[409] },
  }),
};
