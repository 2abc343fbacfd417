import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuditActor } from './audit-log.js';

/** Who is calling, as the transport knows it: the actor when it is not the till itself, and the client address. */
export interface AuditCaller {
  /** Default: the till the intent names. */
  actor?: AuditActor;
  /** The client's address (the one place the transports take it from; null or absent when unknown). */
  address?: string | null;
}

const current = new AsyncLocalStorage<AuditCaller>();

/** Runs `fn` with `caller` as the audited caller of every intent it makes. */
export function withAuditCaller<T>(caller: AuditCaller, fn: () => T): T {
  return current.run(caller, fn);
}

/** The audited caller of the running call, or an empty one (the till itself, no address). */
export function auditCaller(): AuditCaller {
  return current.getStore() ?? {};
}
