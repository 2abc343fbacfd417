import { createRoute } from '@hono/zod-openapi';
import { ErrorEnvelope } from '../contracts/errors.js';
import {
  BatchPushRequest,
  BatchPushResponse,
  PushMessageState,
  ResetPasswordRequest,
  ResetPasswordResponse,
  SinglePushRequest,
  SinglePushResponse,
} from '../contracts/push/bodies.js';
import { PUSH_PATHS } from '../contracts/push/paths.js';
import { IdempotencyHeaders, MessageIdPath } from '../contracts/push/headers.js';

/** The security scheme's name in the OpenAPI document. */
export const PUSH_SECURITY_SCHEME = 'pushBasic';

const security = [{ [PUSH_SECURITY_SCHEME]: [] }];

function error(description: string) {
  return { description, content: { 'application/json': { schema: ErrorEnvelope } } };
}

function ok<T>(schema: T, description: string) {
  return { 200: { description, content: { 'application/json': { schema } } } };
}

function body<T>(schema: T) {
  return { body: { required: true, content: { 'application/json': { schema } } } };
}

const unauthorized = {
  401: {
    ...error(
      'No or wrong Basic credentials, or the initial password is not reset yet: ' +
        '`{"status":"UNAUTHORIZED","errors":["Invalid authorization token"]}`.',
    ),
    headers: { 'WWW-Authenticate': { schema: { type: 'string' as const }, description: '`Basic realm="push"`' } },
  },
};
const common = {
  400: error(
    'The body fails the contract: `BAD_REQUEST`, one `<field>: <message>` line each, e.g. `msisdn: size must be ' +
      'between 0 and 10000`, `subId: must not be null`.',
  ),
  ...unauthorized,
  413: error("The body is over the server's limit (`PAYLOAD_TOO_LARGE`)."),
  500: error('An unexpected failure (`INTERNAL`).'),
};
const tooEarly = {
  304: {
    description:
      'The call came earlier than allowed (document section 7, 8). No body (HTTP forbids one on 304): wait ' +
      '`Retry-After` seconds (`X-Retry-After-Ms` gives the wait in ms) and send again. Refused calls do not ' +
      'count.',
    headers: {
      'Retry-After': {
        schema: { type: 'integer' as const, minimum: 1 },
        description: 'Seconds to wait, rounded up, at least 1.',
      },
      'X-Retry-After-Ms': {
        schema: { type: 'integer' as const, minimum: 1 },
        description: 'The same wait in milliseconds.',
      },
    },
  },
};
const idempotency = {
  409: error('`IDEMPOTENCY_CONFLICT`: this `Idempotency-Key` was used within 24 h with another body.'),
};

export const resetPasswordRoute = createRoute({
  operationId: 'resetPassword',
  method: 'put',
  path: PUSH_PATHS.resetPassword,
  tags: ['Push API'],
  security,
  summary: 'Reset the account password (since 1.1.0)',
  description:
    'Authorized with the current password (the initial one the first time). Until it succeeds every other Push ' +
    'API call answers 401. May be called again later to rotate the password.',
  request: body(ResetPasswordRequest),
  responses: { ...ok(ResetPasswordResponse, 'The password is changed; use the new one from now on.'), ...common },
});

export const singlePushRoute = createRoute({
  operationId: 'sendSingle',
  method: 'post',
  path: PUSH_PATHS.single,
  tags: ['Push API'],
  security,
  summary: 'Send a push message to one number',
  description:
    "Answers 304 when a single push with the same `subId` went to the same `msisdn` within the account's " +
    'minimum interval (default 60 s).',
  request: { headers: IdempotencyHeaders, ...body(SinglePushRequest) },
  responses: { ...ok(SinglePushResponse, 'The message is queued.'), ...tooEarly, ...common, ...idempotency },
});

export const batchPushRoute = createRoute({
  operationId: 'sendBatch',
  method: 'post',
  path: PUSH_PATHS.batch,
  tags: ['Push API'],
  security,
  summary: 'Send one push message to up to 10,000 numbers',
  description:
    'Invalid or repeated numbers are rejected one by one (`INVALID_MSISDN`, `DUPLICATE`), not the batch. ' +
    "Answers 304 when it comes sooner than the account's batch interval (default 1 s) after its last accepted batch; " +
    "a campaign's batches may share one `subId`.",
  request: { headers: IdempotencyHeaders, ...body(BatchPushRequest) },
  responses: { ...ok(BatchPushResponse, 'The accepted numbers are queued.'), ...tooEarly, ...common, ...idempotency },
});

export const messageStateRoute = createRoute({
  operationId: 'getMessage',
  method: 'get',
  path: PUSH_PATHS.message,
  tags: ['Push API'],
  security,
  summary: 'Where a message is: QUEUED, SENT, DELIVERED, READ or FAILED',
  request: { params: MessageIdPath },
  responses: {
    ...ok(PushMessageState, "The message's status."),
    404: error('No such message for this account (`NOT_FOUND`).'),
    ...common,
  },
});

/** The Push API's four operations. */
export const PUSH_ROUTES = {
  resetPassword: resetPasswordRoute,
  sendSingle: singlePushRoute,
  sendBatch: batchPushRoute,
  getMessage: messageStateRoute,
} as const;
