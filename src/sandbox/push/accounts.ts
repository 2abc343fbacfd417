import { randomBytes } from 'node:crypto';
import { sqlState, SQLSTATE, type Queryable } from '../../db/index.js';
import { generateWebhookSecret } from '../../webhooks/secret.js';
import { hashPassword } from './password.js';
import { ACCOUNT_DEFAULTS, type AccountView, type CreateAccountRequest, type UpdateAccountRequest } from './schemas.js';

/** An account row as the service uses it (the secret included; never answered or logged). */
export interface PushAccount {
  login: string;
  partner: string;
  passwordHash: string;
  passwordReset: boolean;
  callbackUrl: string | null;
  callbackSecret: string;
  singleIntervalMs: number;
  batchIntervalMs: number;
  simulateDelivery: boolean;
  createdAt: Date;
}

/** What account creation answers, once. */
export interface CreatedAccount extends AccountView {
  password: string;
  callbackSecret: string;
}

const COLUMNS = `login, partner, password_hash, password_reset_at, callback_url, callback_secret, single_interval_ms,
  batch_interval_ms, simulate_delivery, created_at`;

function fromRow(r: Record<string, unknown>): PushAccount {
  return {
    login: String(r.login),
    partner: String(r.partner),
    passwordHash: String(r.password_hash),
    passwordReset: r.password_reset_at != null,
    callbackUrl: (r.callback_url as string | null) ?? null,
    callbackSecret: String(r.callback_secret),
    singleIntervalMs: Number(r.single_interval_ms),
    batchIntervalMs: Number(r.batch_interval_ms),
    simulateDelivery: Boolean(r.simulate_delivery),
    createdAt: r.created_at as Date,
  };
}

/** The account without its secrets. */
export function accountView(a: PushAccount): AccountView {
  return {
    login: a.login,
    partner: a.partner,
    callbackUrl: a.callbackUrl,
    singleIntervalMs: a.singleIntervalMs,
    batchIntervalMs: a.batchIntervalMs,
    simulateDelivery: a.simulateDelivery,
    passwordReset: a.passwordReset,
    createdAt: a.createdAt.toISOString(),
  };
}

/** A random initial password: 24 base64url characters (144 bits). */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

/**
 * Creates a Push account in the initial-password state; undefined when the
 * login is taken. Used by the test-control route, `--demo` and the CLI.
 *
 * @example
 * const created = await createAccount(db, Date.now(), { login: 'shop-1', partner: 'shop' });
 */
export async function createAccount(
  db: Queryable,
  now: number,
  input: CreateAccountRequest,
): Promise<CreatedAccount | undefined> {
  const password = input.password ?? generatePassword();
  const callbackSecret = input.callbackSecret ?? generateWebhookSecret();
  const passwordHash = await hashPassword(password);
  try {
    const { rows } = await db.query(
      `INSERT INTO push_accounts (login, partner, password_hash, callback_url, callback_secret, single_interval_ms,
         batch_interval_ms, simulate_delivery, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (login) DO NOTHING RETURNING ${COLUMNS}`,
      [
        input.login,
        input.partner,
        passwordHash,
        input.callbackUrl ?? null,
        callbackSecret,
        input.singleIntervalMs ?? ACCOUNT_DEFAULTS.singleIntervalMs,
        input.batchIntervalMs ?? ACCOUNT_DEFAULTS.batchIntervalMs,
        input.simulateDelivery ?? ACCOUNT_DEFAULTS.simulateDelivery,
        new Date(now),
      ],
    );
    const row = rows[0];
    return row === undefined ? undefined : { ...accountView(fromRow(row)), password, callbackSecret };
  } catch (error) {
    if (sqlState(error) === SQLSTATE.uniqueViolation) return undefined;
    throw error;
  }
}

/** The account of `login`, if any. */
export async function findAccount(db: Queryable, login: string): Promise<PushAccount | undefined> {
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM push_accounts WHERE login = $1`, [login]);
  return rows[0] === undefined ? undefined : fromRow(rows[0]);
}

/**
 * Changes the test-control settings; undefined for an unknown login. Turning
 * simulateDelivery on makes the messages it held back due now.
 */
export async function updateAccount(
  db: Queryable,
  login: string,
  now: number,
  patch: UpdateAccountRequest,
): Promise<PushAccount | undefined> {
  const { rows } = await db.query(
    `UPDATE push_accounts SET
       callback_url = CASE WHEN $2 THEN $3 ELSE callback_url END,
       single_interval_ms = COALESCE($4, single_interval_ms),
       batch_interval_ms = COALESCE($5, batch_interval_ms),
       simulate_delivery = COALESCE($6, simulate_delivery)
     WHERE login = $1 RETURNING ${COLUMNS}`,
    [
      login,
      patch.callbackUrl !== undefined,
      patch.callbackUrl ?? null,
      patch.singleIntervalMs ?? null,
      patch.batchIntervalMs ?? null,
      patch.simulateDelivery ?? null,
    ],
  );
  if (rows[0] === undefined) return undefined;
  if (patch.simulateDelivery === true) {
    await db.query(
      "UPDATE push_messages SET next_at = $2 WHERE login = $1 AND status IN ('QUEUED', 'SENT') AND next_at IS NULL",
      [login, new Date(now)],
    );
  }
  return fromRow(rows[0]);
}

/** Stores a new password hash and leaves the initial-password state. */
export async function setPassword(db: Queryable, login: string, passwordHash: string, now: number): Promise<void> {
  await db.query('UPDATE push_accounts SET password_hash = $2, password_reset_at = $3 WHERE login = $1', [
    login,
    passwordHash,
    new Date(now),
  ]);
}
