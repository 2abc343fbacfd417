import { describe, expect, it } from 'vitest';
import { CallbackEvent, CallbackEventType } from '../../../src/contracts/callback/index.js';
import { validationErrors } from '../../../src/contracts/validation-errors.js';
import { pushOpenApiDocument } from '../../../src/routes/push-openapi.js';
import {
  BATCH_SIZE_MESSAGE,
  BatchPushRequest,
  PUSH_API_VERSION,
  PUSH_PATHS,
  PushStatus,
  ResetPasswordRequest,
  SinglePushRequest,
  SUB_ID_NULL_MESSAGE,
} from '../../../src/contracts/push/index.js';

const message = { title: 'Sale', text: 'Everything -20%' };
const errorsOf = (schema: { safeParse(v: unknown): { success: boolean; error?: unknown } }, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? [] : validationErrors(result.error as never);
};

describe('Push contract', () => {
  it('words the batch size and subId messages as the document does, in its order', () => {
    expect(BATCH_SIZE_MESSAGE).toBe('size must be between 0 and 10000');
    expect(SUB_ID_NULL_MESSAGE).toBe('must not be null');
    const msisdn = Array.from({ length: 10_001 }, () => '79991234567');
    expect(errorsOf(BatchPushRequest, { msisdn, subId: null, message })).toEqual([
      'msisdn: size must be between 0 and 10000',
      'subId: must not be null',
    ]);
    expect(errorsOf(BatchPushRequest, { msisdn: [], message })).toEqual(['subId: must not be null']);
    expect(errorsOf(SinglePushRequest, { msisdn: '79991234567', subId: undefined, message })).toEqual([
      'subId: must not be null',
    ]);
  });

  it("accepts 0 and 10,000 numbers and leaves the numbers' form to the per-number rejection", () => {
    expect(BatchPushRequest.safeParse({ msisdn: [], subId: 's', message }).success).toBe(true);
    expect(BatchPushRequest.safeParse({ msisdn: Array(10_000).fill('x'), subId: 's', message }).success).toBe(true);
  });

  it("checks a single push's number, the message and unknown fields", () => {
    expect(
      errorsOf(SinglePushRequest, {
        msisdn: '+79991234567',
        subId: 's',
        message: { title: 'x', text: 'y', deeplink: 'nope' },
        other: 1,
      }),
    ).toEqual([
      'msisdn: must be 11 to 15 digits, country code first, no +',
      'message.deeplink: must be a URL',
      'other: unknown field',
    ]);
    expect(errorsOf(SinglePushRequest, { msisdn: '79991234567', subId: '', message: { title: 'x' } })).toEqual([
      'subId: must not be empty',
      'message.text: must be a string',
    ]);
  });

  it('asks 12 to 128 characters of a new password', () => {
    expect(errorsOf(ResetPasswordRequest, { password: 'x'.repeat(11) })).toEqual([
      'password: must be 12 to 128 characters',
    ]);
    expect(errorsOf(ResetPasswordRequest, { password: 'x'.repeat(12) })).toEqual([]);
  });

  it('has the five statuses and the three callback types', () => {
    expect(PushStatus.options).toEqual(['QUEUED', 'SENT', 'DELIVERED', 'READ', 'FAILED']);
    expect(CallbackEventType.options).toEqual(['push.delivered', 'push.read', 'push.failed']);
    const event = {
      eventId: 'evt_1',
      type: 'push.read',
      messageId: 'pm_1',
      subId: 's',
      msisdn: '79991234567',
      occurredAt: '2026-11-23T10:00:00.000Z',
    };
    expect(CallbackEvent.parse(event)).toEqual(event);
    expect(CallbackEvent.safeParse({ ...event, extra: 1 }).success).toBe(false);
  });
});

describe('pushOpenApiDocument', () => {
  const doc = pushOpenApiDocument() as any;

  it('is an OpenAPI 3.1 document of the Push API, version 1.1.0, with Basic auth', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe(PUSH_API_VERSION);
    expect(Object.keys(doc.paths).sort()).toEqual(Object.values(PUSH_PATHS).sort());
    expect(doc.components.securitySchemes.pushBasic).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'basic' }),
    );
    expect(doc.paths[PUSH_PATHS.resetPassword].put.security).toEqual([{ pushBasic: [] }]);
  });

  it('documents 304 with Retry-After and no body, 401 and the Idempotency-Key extension', () => {
    const batch = doc.paths[PUSH_PATHS.batch].post;
    expect(batch.responses['304'].content).toBeUndefined();
    expect(Object.keys(batch.responses['304'].headers).sort()).toEqual([
      'Retry-After',
      'X-Request-Id',
      'X-Retry-After-Ms',
    ]);
    expect(batch.responses['401'].headers['WWW-Authenticate']).toBeDefined();
    expect(batch.responses['409']).toBeDefined();
    expect(batch.parameters).toEqual([
      expect.objectContaining({ name: 'idempotency-key', in: 'header', required: false }),
      { $ref: '#/components/parameters/RequestId' },
    ]);
    expect(doc.components.schemas.BatchPushRequest.properties.msisdn.maxItems).toBe(10_000);
    expect(doc.components.schemas.BatchPushRequest.required).toEqual(['msisdn', 'subId', 'message']);
  });

  it('documents the Callback API as the webhook pushEvent with the Standard Webhooks headers', () => {
    const hook = doc.webhooks.pushEvent.post;
    expect(hook.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CallbackEvent' });
    expect(hook.parameters.map((p: { name: string }) => p.name)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
    expect(doc.components.schemas.CallbackEvent.required).toEqual([
      'eventId',
      'type',
      'messageId',
      'subId',
      'msisdn',
      'occurredAt',
    ]);
  });

  it('answers a fresh copy each time', () => {
    (pushOpenApiDocument() as any).info.title = 'changed';
    expect((pushOpenApiDocument() as any).info.title).toBe('Push API and Callback API');
  });
});
