import { createHash, randomBytes } from 'node:crypto';
import type { Till } from './tills.js';

/** How long a ticket may wait for its WebSocket upgrade: long enough for a page to connect, too short to reuse. */
export const DEFAULT_TICKET_LIFETIME_MS = 30_000;
/** Unused tickets one till may hold at once; issuing one more drops that till's oldest. */
export const DEFAULT_MAX_TICKETS_PER_TILL = 16;

/** A ticket as handed to a till: the secret and when it stops being accepted (ms since the epoch). */
export interface IssuedTicket {
  ticket: string;
  expiresAt: number;
}

/** Options of {@link TicketStore}; every field is optional. */
export interface TicketStoreOptions {
  /** Validity of a ticket. Default {@link DEFAULT_TICKET_LIFETIME_MS}. */
  lifetimeMs?: number;
  /** Unused tickets per till. Default {@link DEFAULT_MAX_TICKETS_PER_TILL}. */
  maxPerTill?: number;
  /** The clock, in ms since the epoch. Default `Date.now`. */
  now?: () => number;
}

interface Held {
  till: Till;
  expiresAt: number;
}

/**
 * One-use tickets for the browser till's WebSocket upgrade, so its till key never goes into a URL (and proxies'
 * access logs). A ticket is 32 random bytes, valid for one upgrade within its lifetime, bound to the till that asked.
 *
 * Kept in this process: a ticket is accepted only by the instance that issued it (behind a load balancer, route the
 * page's `POST /v1/tickets` and its upgrade to the same instance, or let it retry). Only digests are kept, so the map
 * lookup's timing depends on a hash of what was presented, never on how much of a ticket it matched.
 */
export class TicketStore {
  readonly #lifetimeMs: number;
  readonly #maxPerTill: number;
  readonly #now: () => number;
  /** By digest; a Map keeps insertion order, which is also expiry order (one lifetime for all). */
  readonly #held = new Map<string, Held>();
  readonly #perTill = new Map<string, string[]>();

  constructor(options: TicketStoreOptions = {}) {
    this.#lifetimeMs = options.lifetimeMs ?? DEFAULT_TICKET_LIFETIME_MS;
    this.#maxPerTill = options.maxPerTill ?? DEFAULT_MAX_TICKETS_PER_TILL;
    this.#now = options.now ?? Date.now;
  }

  /** Unused, unexpired tickets held. */
  get size(): number {
    this.#sweep();
    return this.#held.size;
  }

  /** A new ticket for `till`. */
  issue(till: Till): IssuedTicket {
    this.#sweep();
    const ticket = randomBytes(32).toString('base64url');
    const id = digest(ticket);
    const expiresAt = this.#now() + this.#lifetimeMs;
    this.#held.set(id, { till, expiresAt });
    const own = this.#perTill.get(till.id) ?? [];
    own.push(id);
    // A page that keeps asking cannot grow the map: its oldest unused tickets go first.
    while (own.length > this.#maxPerTill) this.#held.delete(own.shift()!);
    this.#perTill.set(till.id, own);
    return { ticket, expiresAt };
  }

  /** The till a ticket was issued to, once: a found ticket is spent. Undefined if unknown, spent or expired. */
  redeem(presented: string | undefined): Till | undefined {
    if (typeof presented !== 'string' || presented.length === 0 || presented.length > 512) return undefined;
    this.#sweep();
    const id = digest(presented);
    const held = this.#held.get(id);
    if (held === undefined) return undefined;
    this.#forget(id, held.till.id);
    return held.till;
  }

  /** Drops expired tickets: they are at the front, issue order being expiry order. */
  #sweep(): void {
    const now = this.#now();
    for (const [id, held] of this.#held) {
      if (held.expiresAt > now) break;
      this.#forget(id, held.till.id);
    }
  }

  #forget(id: string, tillId: string): void {
    this.#held.delete(id);
    const own = this.#perTill.get(tillId);
    if (own === undefined) return;
    const left = own.filter((other) => other !== id);
    if (left.length > 0) this.#perTill.set(tillId, left);
    else this.#perTill.delete(tillId);
  }
}

function digest(ticket: string): string {
  return createHash('sha256').update(ticket).digest('base64url');
}
