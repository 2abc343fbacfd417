import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/index.js';
import { problem } from '../../../adapters/http-server/index.js';

/** How long an Idempotency-Key is remembered. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

/** What a key's earlier use left: nothing (go on), or the stored answer to send again. */
export type Recalled = { kind: 'new' } | { kind: 'replay'; response: unknown };

/** The fingerprint of a request: its path and its validated body. */
export function requestHash(path: string, body: unknown): string {
  return createHash('sha256').update(path).update('\n').update(JSON.stringify(body)).digest('base64url');
}

/**
 * Reserves `key` for this request inside the send's transaction, or recalls
 * its earlier answer. On PostgreSQL a concurrent request with the same key
 * waits on the reservation's row until the first commits, then replays it.
 * @throws HttpProblem 409 IDEMPOTENCY_CONFLICT when the key came with another body.
 */
export async function recallOrReserve(
  tx: Queryable,
  login: string,
  key: string,
  hash: string,
  now: number,
): Promise<Recalled> {
  const inserted = await tx.query(
    `INSERT INTO push_idempotency (login, idempotency_key, request_hash, response, created_at) VALUES ($1, $2, $3,
      '', $4)
     ON CONFLICT (login, idempotency_key) DO NOTHING RETURNING login`,
    [login, key, hash, new Date(now)],
  );
  if (inserted.rows.length > 0) return { kind: 'new' };
  const { rows } = await tx.query<{ request_hash: string; response: string; created_at: Date }>(
    'SELECT request_hash, response, created_at FROM push_idempotency WHERE login = $1 AND idempotency_key = $2 ' +
      'FOR UPDATE',
    [login, key],
  );
  const row = rows[0]!;
  if (row.created_at.getTime() <= now - IDEMPOTENCY_TTL_MS || row.response === '') {
    await tx.query(
      `UPDATE push_idempotency SET request_hash = $3, response = '', created_at = $4 WHERE login = $1 AND ` +
        `idempotency_key = $2`,
      [login, key, hash, new Date(now)],
    );
    return { kind: 'new' };
  }
  if (row.request_hash !== hash) {
    throw problem('IDEMPOTENCY_CONFLICT', ['Idempotency-Key: was used with another request body within 24 h']);
  }
  return { kind: 'replay', response: JSON.parse(row.response) };
}

/** Stores the answer of a reserved key (same transaction). */
export async function storeResponse(tx: Queryable, login: string, key: string, response: unknown): Promise<void> {
  await tx.query('UPDATE push_idempotency SET response = $3 WHERE login = $1 AND idempotency_key = $2', [
    login,
    key,
    JSON.stringify(response),
  ]);
}
