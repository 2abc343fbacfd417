import type { PushStatus } from '../../contracts/push/index.js';
import type { Database } from '../../db/index.js';
import { problem } from '../../../adapters/http-server/index.js';
import type { Outbox } from '../outbox/index.js';
import { enqueueCallbacks, type StatusChange } from './events.js';
import { callbackTarget } from './progress.js';

/** A message as the wallet-app simulator's inbox shows it. */
export interface InboxMessage {
  messageId: string;
  subId: string;
  login: string;
  title: string;
  text: string;
  deeplink: string | null;
  status: PushStatus;
  receivedAt: string;
}

/** The newest messages (at most `limit`, default 100) sent to `msisdn`, by any account; or just `messageId`. */
export async function inbox(db: Database, msisdn: string, limit = 100, messageId?: string): Promise<InboxMessage[]> {
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT m.message_id, m.sub_id, m.login, s.title, s.text, s.deeplink, m.status, m.created_at
     FROM push_messages m JOIN push_sends s ON s.send_id = m.send_id
     WHERE m.msisdn = $1 AND ($3::text IS NULL OR m.message_id = $3) ORDER BY m.created_at DESC, m.message_id LIMIT $2`,
    [msisdn, limit, messageId ?? null],
  );
  return rows.map((r) => ({
    messageId: String(r.message_id),
    subId: String(r.sub_id),
    login: String(r.login),
    title: String(r.title),
    text: String(r.text),
    deeplink: (r.deeplink as string | null) ?? null,
    status: r.status as PushStatus,
    receivedAt: (r.created_at as Date).toISOString(),
  }));
}

/**
 * The customer opens a message on the phone `msisdn`: it becomes READ. A
 * message not yet delivered (QUEUED or SENT) is delivered first, so both
 * callbacks are sent; reading a READ message again changes nothing.
 * @throws HttpProblem 404 (no such message on this phone), 409 INVALID_STATE (FAILED, or the phone is unreachable).
 */
export async function markRead(
  db: Database,
  outbox: Outbox,
  now: number,
  msisdn: string,
  messageId: string,
): Promise<InboxMessage> {
  const events = await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ login: string; sub_id: string; status: PushStatus; state: string | null }>(
      `SELECT m.login, m.sub_id, m.status, p.state FROM push_messages m LEFT JOIN push_phones p ON p.msisdn = m.msisdn
       WHERE m.message_id = $1 AND m.msisdn = $2 FOR UPDATE OF m`,
      [messageId, msisdn],
    );
    const row = rows[0];
    if (row === undefined) throw problem('NOT_FOUND', ['messageId: no such message on this phone']);
    if (row.status === 'READ') return 0;
    if (row.status === 'FAILED') throw problem('INVALID_STATE', ['messageId: the message failed and cannot be read']);
    if (row.state === 'unreachable') throw problem('INVALID_STATE', ['msisdn: the phone is unreachable']);
    await tx.query("UPDATE push_messages SET status = 'READ', updated_at = $2, next_at = NULL WHERE message_id = $1", [
      messageId,
      new Date(now),
    ]);
    const at = new Date(now);
    const base = { messageId, subId: row.sub_id, msisdn, occurredAt: at };
    const changes: StatusChange[] =
      row.status === 'DELIVERED'
        ? [{ ...base, type: 'push.read' }]
        : [
            { ...base, type: 'push.delivered' },
            { ...base, type: 'push.read' },
          ];
    const target = await callbackTarget(tx, row.login);
    return target ? enqueueCallbacks(outbox, tx, target, changes) : 0;
  });
  if (events > 0) outbox.kick();
  const [shown] = await inbox(db, msisdn, 1, messageId);
  return shown!;
}

/** Marks a phone online or unreachable; messages to an unreachable phone fail when the simulation next reaches them. */
export async function setPhoneState(
  db: Database,
  now: number,
  msisdn: string,
  state: 'online' | 'unreachable',
): Promise<void> {
  await db.query(
    `INSERT INTO push_phones (msisdn, state, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (msisdn) DO UPDATE SET state = EXCLUDED.state, updated_at = EXCLUDED.updated_at`,
    [msisdn, state, new Date(now)],
  );
}
