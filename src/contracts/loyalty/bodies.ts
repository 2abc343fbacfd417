import { z } from 'zod';
import { CardNumberText } from '../card-identifiers.js';
import { singleLine } from '../text.js';
import { MAX_RECEIPT_QR_LENGTH, parseReceiptQr } from './receipt-qr.js';

const ID = /^[A-Za-z0-9._:-]{1,64}$/;
const ID_MESSAGE = 'must be 1 to 64 of [A-Za-z0-9._:-]';

/** Card numbers the barcode cores accept; in a path, URL-encoded. */
export const CardNumber = CardNumberText;
export const GroupId = z.string({ error: ID_MESSAGE }).regex(ID, { error: ID_MESSAGE }).meta({ example: 'products' });
export const CategoryId = z.string({ error: ID_MESSAGE }).regex(ID, { error: ID_MESSAGE }).meta({ example: 'dairy' });

/** Path parameters of the card routes. */
export const CardPath = z.object({
  cardNumber: CardNumber.meta({ param: { name: 'cardNumber', in: 'path' } }),
});

// GET /v1/card/{cardNumber}/categories
export const Category = z
  .object({
    categoryId: CategoryId,
    name: z.string(),
  })
  .meta({ id: 'Category' });
export const CategoryGroup = z
  .object({
    groupId: GroupId,
    name: z.string(),
    maxSelected: z
      .number()
      .int()
      .min(1)
      .meta({ description: 'How many categories of this group the user may choose at most.' }),
    categories: z.array(Category),
  })
  .meta({ id: 'CategoryGroup' });
export const CategoriesResponse = z.object({ groups: z.array(CategoryGroup) }).meta({ id: 'CategoriesResponse' });

// GET and POST /v1/card/{cardNumber}/categories/favorite
const selectionShape = {
  groupId: GroupId,
  categoryIds: z
    .array(CategoryId, { error: 'must be a list of category ids' })
    .max(64, { error: 'must list at most 64 categories' })
    .refine((ids) => new Set(ids).size === ids.length, { error: 'must not repeat a category' }),
};
/** The categories chosen in one group, as answered (fields added by a later version are ignored). */
export const FavoriteSelection = z.object(selectionShape).meta({ id: 'FavoriteSelection' });
/** The categories chosen in one group, as sent: no unknown fields. */
export const FavoriteSelectionInput = z.object(selectionShape).strict().meta({ id: 'FavoriteSelectionInput' });
export const FavoritesResponse = z
  .object({
    favorites: z
      .array(FavoriteSelection)
      .meta({ description: 'The chosen categories per group; groups with none chosen may be left out.' }),
  })
  .meta({ id: 'FavoritesResponse' });
export const SetFavoritesRequest = z
  .object({
    favorites: z
      .array(FavoriteSelectionInput, { error: 'must be a list of { groupId, categoryIds }' })
      .max(64, { error: 'must list at most 64 groups' })
      .refine((list) => new Set(list.map((f) => f.groupId)).size === list.length, { error: 'must not repeat a group' })
      .meta({
        description: 'The whole new selection: it replaces the previous one; a group left out has nothing chosen.',
      }),
  })
  .strict()
  .meta({ id: 'SetFavoritesRequest' });

// POST /v1/promo/code
export const PromoCodeRequest = z
  .object({
    cardNumber: CardNumber,
    code: singleLine(
      z
        .string({ error: 'must be a string' })
        .trim()
        .min(1, { error: 'must not be empty' })
        .max(64, { error: 'must be at most 64 characters' }),
    ).meta({ description: 'The code as the user typed it (surrounding spaces are dropped).', example: 'WELCOME100' }),
  })
  .strict()
  .meta({ id: 'PromoCodeRequest' });
export const PromoCodeResult = z.enum(['APPLIED', 'INVALID', 'EXPIRED', 'ALREADY_USED']).meta({
  id: 'PromoCodeResult',
  description:
    'APPLIED: accepted now; INVALID: no such code; EXPIRED: past its end; ALREADY_USED: this card used it, or its ' +
    'uses ran out.',
});
export const PromoCodeResponse = z
  .object({
    result: PromoCodeResult,
    message: z.string().meta({ description: 'A sentence the app shows the user.' }),
    bonusAmount: z
      .number()
      .int()
      .min(0)
      .optional()
      .meta({ description: 'Bonus credited to the card, in kopecks (APPLIED only).' }),
  })
  .meta({ id: 'PromoCodeResponse' });

// POST /v1/card/anonymous
export const AnonymousCardRequest = z
  .object({
    requestId: z.string({ error: 'must be a string' }).regex(ID, { error: ID_MESSAGE }).meta({
      description: 'Makes the call idempotent: the same requestId always gets the same card.',
      example: 'wallet-7d1c2e',
    }),
  })
  .strict()
  .meta({ id: 'AnonymousCardRequest' });
export const AnonymousCardResponse = z
  .object({
    cardNumber: CardNumber,
    cardKey: z
      .string()
      .regex(/^(?:[0-9a-fA-F]{2}){16,}$/)
      .optional()
      .meta({
        description:
          'card-bound partners only: the card\'s diversified key, hex: HMAC(partnerKey, "card:" + cardNumber). ' +
          'The app draws the barcode with it. ' +
          "Absent under rfc6238 (the document's scheme), where the app draws with the partner key.",
      }),
  })
  .meta({ id: 'AnonymousCardResponse' });

// POST /v1/promo/qrCode
export const ReceiptQrRequest = z
  .object({
    cardNumber: CardNumber,
    qrCode: singleLine(
      z
        .string({ error: 'must be a string' })
        .max(MAX_RECEIPT_QR_LENGTH, { error: `must be at most ${MAX_RECEIPT_QR_LENGTH} characters` }),
    )
      .superRefine((text, ctx) => {
        const parsed = parseReceiptQr(text);
        if (!parsed.ok) for (const message of parsed.problems) ctx.addIssue({ code: 'custom', message });
      })
      .meta({
        description:
          'The fiscal receipt QR string: t (yyyyMMddTHHmm[ss]), s (sum, two decimals), fn (16 digits), i ' +
          '(document number), fp (fiscal sign, up to 10 digits), n (1..4).',
        example: 't=20240315T1425&s=1020.00&fn=9289000100242345&i=12345&fp=3826350066&n=1',
      }),
  })
  .strict()
  .meta({ id: 'ReceiptQrRequest' });
export const ReceiptQrResult = z.enum(['ACCEPTED', 'DUPLICATE', 'INVALID']).meta({
  id: 'ReceiptQrResult',
  description:
    'ACCEPTED: recorded now; DUPLICATE: this receipt was sent before; INVALID: well formed, but the merchant does ' +
    'not take it (e.g. not a purchase, too old).',
});
export const ReceiptQrResponse = z
  .object({
    result: ReceiptQrResult,
    bonusAmount: z
      .number()
      .int()
      .min(0)
      .optional()
      .meta({ description: 'Bonus credited for this receipt, in kopecks (ACCEPTED only).' }),
    message: z.string().optional().meta({ description: 'A sentence the app may show the user.' }),
  })
  .meta({ id: 'ReceiptQrResponse' });

export type CardPath = z.infer<typeof CardPath>;
export type Category = z.infer<typeof Category>;
export type CategoryGroup = z.infer<typeof CategoryGroup>;
export type CategoriesResponse = z.infer<typeof CategoriesResponse>;
export type FavoriteSelection = z.infer<typeof FavoriteSelection>;
export type FavoritesResponse = z.infer<typeof FavoritesResponse>;
export type SetFavoritesRequest = z.infer<typeof SetFavoritesRequest>;
export type PromoCodeRequest = z.infer<typeof PromoCodeRequest>;
export type PromoCodeResult = z.infer<typeof PromoCodeResult>;
export type PromoCodeResponse = z.infer<typeof PromoCodeResponse>;
export type AnonymousCardRequest = z.infer<typeof AnonymousCardRequest>;
export type AnonymousCardResponse = z.infer<typeof AnonymousCardResponse>;
export type ReceiptQrRequest = z.infer<typeof ReceiptQrRequest>;
export type ReceiptQrResult = z.infer<typeof ReceiptQrResult>;
export type ReceiptQrResponse = z.infer<typeof ReceiptQrResponse>;
