import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxPayOpenApiDocument } from '../../../src/sandbox/pay/openapi.js';
import { PAY_PATHS } from '../../../src/routes/pay.js';

type Doc = {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        security?: unknown[];
        requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
        responses: Record<string, unknown>;
      }
    >
  >;
  components: {
    schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }>;
    securitySchemes: Record<string, unknown>;
  };
  webhooks: Record<string, unknown>;
};

describe('sandboxPayOpenApiDocument', () => {
  const doc = sandboxPayOpenApiDocument() as Doc;

  it('describes every Pay API path with its token, body schema and error answers', () => {
    expect(doc.openapi).toBe('3.1.0');
    for (const path of Object.values(PAY_PATHS)) {
      const post = doc.paths[path]?.post;
      expect(post, path).toBeDefined();
      expect(post!.security, path).toEqual(path === '/status' ? [{ walletToken: [] }, {}] : [{ walletToken: [] }]);
      expect(Object.keys(post!.responses), path).toEqual(expect.arrayContaining(['200', '400', '401']));
    }
    expect(doc.paths['/checkout']!.post!.requestBody!.content['application/json']!.schema.$ref).toBe(
      '#/components/schemas/CheckoutRequest',
    );
    expect(Object.keys(doc.paths['/checkout']!.post!.responses)).toEqual(expect.arrayContaining(['409', '422']));
    expect(doc.components.securitySchemes.walletToken).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-Wallet-Token',
    });
  });

  it('carries the item rules: measure enum, integer quantity and kopecks', () => {
    const item = doc.components.schemas.Item!;
    expect(item.required).toEqual(expect.arrayContaining(['name', 'article', 'quantity', 'price']));
    expect(item.properties!.quantity).toMatchObject({ type: 'integer', minimum: 1 });
    expect(item.properties!.price).toMatchObject({ type: 'integer', minimum: 0 });
    expect(doc.components.schemas.Measure).toMatchObject({ enum: ['PIECE', 'GRAM', 'KILOGRAM'] });
    expect(doc.components.schemas.PayError!.properties!.status).toMatchObject({
      enum: [
        'BAD_REQUEST',
        'TOKEN_INVALID',
        'NOT_FOUND',
        'CARD_SESSION_INVALID',
        'IDEMPOTENCY_CONFLICT',
        'INVALID_STATE',
        'AMOUNT_MISMATCH',
        'UNSUPPORTED_MEDIA_TYPE',
        'UNAVAILABLE',
      ],
    });
  });

  it('includes the simulator and test controls under /sandbox/ and the transaction.updated webhook', () => {
    for (const path of [
      '/sandbox/partners',
      '/sandbox/cards',
      '/sandbox/cards/{cardNumber}/barcode',
      '/sandbox/app/invoices',
      '/sandbox/app/transactions/{transactionId}/confirm',
      '/sandbox/app/transactions/{transactionId}/decline',
      '/sandbox/app/transactions/{transactionId}/cancel',
      '/sandbox/bank',
      '/sandbox/faults',
      '/sandbox/webhooks',
      '/sandbox/transactions/{transactionId}',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(doc.webhooks['transaction.updated']).toBeDefined();
  });

  it('is what openapi/pay.json holds (regenerate with npm run build:openapi)', () => {
    const file = JSON.parse(
      readFileSync(join(import.meta.dirname, '..', '..', '..', 'openapi', 'pay.json'), 'utf8'),
    ) as unknown;
    expect(file).toEqual(doc);
  });
});
