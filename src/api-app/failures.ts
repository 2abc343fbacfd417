import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { sqlState } from '../db/database.js';
import { HttpProblem } from './problem.js';

/**
 * The last-resort refusal of input the database would not take (SQLSTATE
 * class 22, data exception: a NUL, bytes that are not UTF-8, a value too long
 * or out of range), which the contract should have caught: 400, not 500.
 * Recognised by the error's code, never its message.
 */
export function databaseRefusal(error: unknown): HttpProblem | undefined {
  const code = sqlState(error);
  if (code === undefined || !code.startsWith('22')) return undefined;
  return new HttpProblem(400, 'BAD_REQUEST', ['body: a value was refused as invalid data; check text fields for control characters and lengths']);
}

/**
 * Whether the client went away before its request body ended: the failure is
 * the client's, nobody reads the answer, and it is no server error.
 */
export function clientAborted(c: Context): boolean {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming !== undefined && !incoming.complete && (incoming.destroyed || incoming.readableAborted)) return true;
  return c.req.raw.signal?.aborted === true;
}
