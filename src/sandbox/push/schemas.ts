import { z } from '@hono/zod-openapi';
import { Msisdn, PushStatus } from '../../contracts/push/index.js';
import { singleLine } from '../../contracts/text.js';

const login = z.string({ error: 'must be a string' }).regex(/^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/, {
  error: 'must be 1 to 64 of [A-Za-z0-9._@-], starting with a letter or digit',
});
const password = singleLine(
  z
    .string({ error: 'must be a string' })
    .min(12, { error: 'must be 12 to 128 characters' })
    .max(128, { error: 'must be 12 to 128 characters' }),
);
const callbackUrl = singleLine(
  z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .max(2048, { error: 'must be at most 2048 characters' }),
);
const interval = z
  .number({ error: 'must be a number of ms' })
  .int({ error: 'must be an integer' })
  .min(0, { error: 'must be 0 to 86400000' })
  .max(86_400_000, { error: 'must be 0 to 86400000' });

/** Defaults of a new account: the intervals of the 304 rule, which the interface document (section 8) leaves open. */
export const ACCOUNT_DEFAULTS = { singleIntervalMs: 60_000, batchIntervalMs: 1_000, simulateDelivery: true } as const;

/** POST /sandbox/push/accounts */
export const CreateAccountRequest = z
  .object({
    login,
    partner: singleLine(
      z
        .string({ error: 'must be a string' })
        .min(1, { error: 'must not be empty' })
        .max(64, { error: 'must be at most 64 characters' }),
    ),
    callbackUrl: callbackUrl.optional(),
    password: password
      .optional()
      .openapi({ description: 'The initial password; default a random one, answered once.' }),
    callbackSecret: z
      .string({ error: 'must be a string' })
      .regex(/^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/, { error: 'must be whsec_ followed by 24 to 64 bytes in base64' })
      .optional()
      .openapi({ description: 'Default a new random `whsec_` secret.' }),
    singleIntervalMs: interval.optional().openapi({
      description:
        `Minimum gap between two single pushes with one subId to one number; default ` +
        `${ACCOUNT_DEFAULTS.singleIntervalMs}.`,
    }),
    batchIntervalMs: interval
      .optional()
      .openapi({ description: `Minimum gap after an accepted batch; default ${ACCOUNT_DEFAULTS.batchIntervalMs}.` }),
    simulateDelivery: z
      .boolean({ error: 'must be true or false' })
      .optional()
      .openapi({ description: 'Messages advance to SENT and DELIVERED on their own; default true.' }),
  })
  .strict()
  .openapi('SandboxPushAccountCreate');
export type CreateAccountRequest = z.infer<typeof CreateAccountRequest>;

/** PATCH /sandbox/push/accounts/{login} */
export const UpdateAccountRequest = z
  .object({
    callbackUrl: callbackUrl.nullable().optional().openapi({ description: 'null removes it (no callbacks then).' }),
    singleIntervalMs: interval.optional(),
    batchIntervalMs: interval.optional(),
    simulateDelivery: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .strict()
  .openapi('SandboxPushAccountUpdate');
export type UpdateAccountRequest = z.infer<typeof UpdateAccountRequest>;

/** An account as the test controls show it: never its password or callback secret. */
export const AccountView = z
  .object({
    login: z.string(),
    partner: z.string(),
    callbackUrl: z.string().nullable(),
    singleIntervalMs: z.number().int(),
    batchIntervalMs: z.number().int(),
    simulateDelivery: z.boolean(),
    passwordReset: z
      .boolean()
      .openapi({ description: 'False while the initial password is in force (every call but the reset answers 401).' }),
    createdAt: z.string(),
  })
  .openapi('SandboxPushAccount');
export type AccountView = z.infer<typeof AccountView>;

/** The creation answer: the only time the initial password and the callback secret are shown. */
export const CreatedAccount = AccountView.extend({
  password: z.string().openapi({ description: 'The initial password; reset it with PUT /public/user/reset-password.' }),
  callbackSecret: z.string().openapi({ description: 'The `whsec_` secret callbacks are signed with.' }),
}).openapi('SandboxPushAccountCreated');

export const LoginPath = z.object({
  login: login.openapi({ param: { name: 'login', in: 'path' }, example: 'demo-push' }),
});
export const LoginQuery = z.object({
  login: login.openapi({ param: { name: 'login', in: 'query' }, example: 'demo-push' }),
});
export const MsisdnPath = z.object({ msisdn: Msisdn.meta({ param: { name: 'msisdn', in: 'path' } }) });
export const InboxMessagePath = MsisdnPath.extend({
  messageId: singleLine(z.string().min(1).max(128)).openapi({ param: { name: 'messageId', in: 'path' } }),
});

/** POST /sandbox/push/phones/{msisdn} */
export const PhoneStateRequest = z
  .object({
    state: z.enum(['online', 'unreachable'], { error: 'must be online or unreachable' }),
  })
  .strict()
  .openapi('SandboxPhoneState');
export const PhoneStateResponse = z
  .object({ msisdn: z.string(), state: z.enum(['online', 'unreachable']) })
  .openapi('SandboxPhone');

/** GET /sandbox/app/inbox/{msisdn} */
export const InboxResponse = z
  .object({
    messages: z.array(
      z.object({
        messageId: z.string(),
        subId: z.string(),
        login: z.string(),
        title: z.string(),
        text: z.string(),
        deeplink: z.string().nullable(),
        status: PushStatus,
        receivedAt: z.string(),
      }),
    ),
  })
  .openapi('SandboxInbox');

/** GET /sandbox/push/stats */
export const StatsQuery = z.object({
  login: login.openapi({ param: { name: 'login', in: 'query' } }),
  subId: singleLine(z.string().min(1).max(64))
    .optional()
    .openapi({ param: { name: 'subId', in: 'query' } }),
});
export const StatsResponse = z
  .object({
    messages: z.number().int(),
    distinctMsisdn: z.number().int(),
    duplicateMsisdn: z
      .number()
      .int()
      .openapi({ description: 'messages - distinctMsisdn: 0 when each number got exactly one message.' }),
    batches: z.number().int(),
    singles: z.number().int(),
    byStatus: z.record(z.string(), z.number().int()),
  })
  .openapi('SandboxPushStats');

export const DeliveriesQuery = LoginQuery.extend({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .optional()
    .openapi({ param: { name: 'limit', in: 'query' }, description: 'Default 100.' }),
});
export const DeliveryView = z
  .object({
    id: z.string(),
    topic: z.string(),
    owner: z.string(),
    eventType: z.string(),
    url: z.string(),
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.number().int(),
    nextAttemptAt: z.string().nullable(),
    lastError: z.string().nullable(),
    createdAt: z.string(),
    deliveredAt: z.string().nullable(),
    body: z.string(),
    history: z.array(
      z.object({
        attempt: z.number().int(),
        at: z.string(),
        httpStatus: z.number().int().nullable(),
        error: z.string().nullable(),
        durationMs: z.number().int(),
      }),
    ),
  })
  .openapi('SandboxDelivery');
export const DeliveriesResponse = z.object({ deliveries: z.array(DeliveryView) }).openapi('SandboxDeliveries');
export const DeliveryPath = z.object({
  id: singleLine(z.string().min(1).max(128)).openapi({ param: { name: 'id', in: 'path' } }),
});
