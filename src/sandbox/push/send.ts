import { randomBytes } from 'node:crypto';
import {
  MSISDN,
  type BatchPushRequest,
  type BatchPushResponse,
  type RejectedNumber,
  type SinglePushRequest,
  type SinglePushResponse,
} from '../../contracts/push/index.js';
import type { Database, Queryable } from '../../db/index.js';
import type { PushAccount } from './accounts.js';
import { recallOrReserve, requestHash, storeResponse } from './idempotency.js';
import { claimBatch, claimSingle } from './rate.js';

/** When a queued message is handed to the phone network (then delivered ~1 s after it was queued), before timeScale. */
export const SENT_AFTER_MS = 200;
export const DELIVERED_AFTER_MS = 800;

/** What a send needs besides its body. */
export interface SendContext {
  db: Database;
  account: PushAccount;
  now: number;
  timeScale: number;
  idempotencyKey?: string | undefined;
  path: string;
}

/** A send's answer, and whether it is a stored one sent again. */
export interface SendResult<T> {
  response: T;
  replayed: boolean;
}

const newId = (prefix: string): string => `${prefix}_${randomBytes(12).toString('hex')}`;

/** `count` fresh message ids from one read of the random source. */
function messageIds(count: number): string[] {
  const bytes = randomBytes(12 * count);
  const ids = new Array<string>(count);
  for (let i = 0; i < count; i++) ids[i] = `pm_${bytes.toString('hex', i * 12, i * 12 + 12)}`;
  return ids;
}

/** Runs a send in one transaction with its Idempotency-Key (if any): replays, or does `work` and stores its answer. */
async function idempotent<T>(
  ctx: SendContext,
  body: unknown,
  work: (tx: Queryable) => Promise<T>,
): Promise<SendResult<T>> {
  return ctx.db.transaction(async (tx) => {
    const key = ctx.idempotencyKey;
    if (key !== undefined) {
      const recalled = await recallOrReserve(tx, ctx.account.login, key, requestHash(ctx.path, body), ctx.now);
      if (recalled.kind === 'replay') return { response: recalled.response as T, replayed: true };
    }
    const response = await work(tx);
    if (key !== undefined) await storeResponse(tx, ctx.account.login, key, response);
    return { response, replayed: false };
  });
}

async function insertSend(
  tx: Queryable,
  ctx: SendContext,
  id: string,
  kind: 'single' | 'batch',
  body: SinglePushRequest | BatchPushRequest,
  accepted: number,
): Promise<void> {
  await tx.query(
    `INSERT INTO push_sends (send_id, login, kind, sub_id, title, text, deeplink, accepted, created_at) VALUES ` +
      `($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      id,
      ctx.account.login,
      kind,
      body.subId,
      body.message.title,
      body.message.text,
      body.message.deeplink ?? null,
      accepted,
      new Date(ctx.now),
    ],
  );
}

/** When the simulated phones first look at a new message; NULL while the account's simulation is off. */
function firstStep(ctx: SendContext): Date | null {
  return ctx.account.simulateDelivery ? new Date(ctx.now + SENT_AFTER_MS / ctx.timeScale) : null;
}

/**
 * POST /public/push/single: queues one message.
 * @throws TooEarly (304) when the same subId went to the same number within the account's interval.
 */
export async function sendSingle(ctx: SendContext, body: SinglePushRequest): Promise<SendResult<SinglePushResponse>> {
  return idempotent(ctx, body, async (tx) => {
    await claimSingle(
      tx,
      { login: ctx.account.login, subId: body.subId, msisdn: body.msisdn },
      ctx.now,
      ctx.account.singleIntervalMs / ctx.timeScale,
    );
    const sendId = newId('ps');
    const [messageId] = messageIds(1) as [string];
    await insertSend(tx, ctx, sendId, 'single', body, 1);
    await tx.query(
      `INSERT INTO push_messages (message_id, send_id, login, sub_id, msisdn, status, created_at, updated_at, next_at)
       VALUES ($1, $2, $3, $4, $5, 'QUEUED', $6, $6, $7)`,
      [messageId, sendId, ctx.account.login, body.subId, body.msisdn, new Date(ctx.now), firstStep(ctx)],
    );
    return { messageId, subId: body.subId };
  });
}

/** Splits a batch's numbers into the ones to queue and the ones refused one by one. */
export function screenNumbers(numbers: readonly string[]): { accepted: string[]; rejected: RejectedNumber[] } {
  const seen = new Set<string>();
  const accepted: string[] = [];
  const rejected: RejectedNumber[] = [];
  for (const msisdn of numbers) {
    if (!MSISDN.test(msisdn)) rejected.push({ msisdn, reason: 'INVALID_MSISDN' });
    else if (seen.has(msisdn)) rejected.push({ msisdn, reason: 'DUPLICATE' });
    else {
      seen.add(msisdn);
      accepted.push(msisdn);
    }
  }
  return { accepted, rejected };
}

/**
 * POST /public/push/batch: queues one message per valid, distinct number with
 * one multi-row INSERT (unnest of two arrays), so 10,000 rows are one statement.
 * @throws TooEarly (304) when it comes sooner than the batch interval after the last accepted batch.
 */
export async function sendBatch(ctx: SendContext, body: BatchPushRequest): Promise<SendResult<BatchPushResponse>> {
  return idempotent(ctx, body, async (tx) => {
    await claimBatch(tx, ctx.account.login, ctx.now, ctx.account.batchIntervalMs / ctx.timeScale);
    const { accepted, rejected } = screenNumbers(body.msisdn);
    const batchId = newId('pb');
    const ids = messageIds(accepted.length);
    await insertSend(tx, ctx, batchId, 'batch', body, accepted.length);
    if (accepted.length > 0) {
      await tx.query(
        `INSERT INTO push_messages (message_id, send_id, login, sub_id, msisdn, status, created_at, updated_at, next_at)
         SELECT t.id, $3, $4, $5, t.msisdn, 'QUEUED', $6, $6, $7 FROM unnest($1::text[], $2::text[]) AS t(id, msisdn)`,
        [ids, accepted, batchId, ctx.account.login, body.subId, new Date(ctx.now), firstStep(ctx)],
      );
    }
    return {
      batchId,
      subId: body.subId,
      accepted: accepted.length,
      rejected,
      messages: accepted.map((msisdn, i) => ({ msisdn, messageId: ids[i]! })),
    };
  });
}
