import { randomBytes } from 'node:crypto';
import type { CallbackEvent, CallbackEventType } from '../../contracts/callback/index.js';
import type { Queryable } from '../../db/index.js';
import type { Outbox, OutboxMessage } from '../outbox/index.js';

/** The outbox topic of Push callbacks; the owner is the account's login. */
export const PUSH_TOPIC = 'push';

/** A message whose status changed to one the Callback API reports. */
export interface StatusChange {
  messageId: string;
  subId: string;
  msisdn: string;
  type: CallbackEventType;
  occurredAt: Date;
}

/** Where an account's callbacks go; no URL, no events. */
export interface CallbackTarget {
  login: string;
  callbackUrl: string | null;
  callbackSecret: string;
}

/** The Callback API body (src/contracts/callback/events.ts); its eventId is also the webhook-id. */
export function callbackEvent(change: StatusChange): CallbackEvent {
  return {
    eventId: `evt_${randomBytes(12).toString('hex')}`,
    type: change.type,
    messageId: change.messageId,
    subId: change.subId,
    msisdn: change.msisdn,
    occurredAt: change.occurredAt.toISOString(),
  };
}

/**
 * Enqueues one callback per change in `tx`, the transaction that made the
 * changes, so an event exists exactly when its change was committed.
 * Call `outbox.kick()` after the commit.
 */
export async function enqueueCallbacks(
  outbox: Outbox,
  tx: Queryable,
  target: CallbackTarget,
  changes: readonly StatusChange[],
): Promise<number> {
  if (target.callbackUrl === null || changes.length === 0) return 0;
  const url = target.callbackUrl;
  const messages: OutboxMessage[] = changes.map((change) => {
    const event = callbackEvent(change);
    return {
      id: event.eventId,
      topic: PUSH_TOPIC,
      owner: target.login,
      eventType: event.type,
      url,
      secret: target.callbackSecret,
      payload: event,
    };
  });
  await outbox.enqueueMany(tx, messages);
  return messages.length;
}
