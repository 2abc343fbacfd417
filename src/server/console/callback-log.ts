import type { CallbackEvent } from '../../contracts/callback/index.js';

/** A callback the merchant's receiver got (verified, stored, then handed to its handler). */
export interface ReceivedCallback {
  eventId: string;
  type: string;
  messageId: string;
  subId: string;
  msisdn: string;
  occurredAt: string;
  receivedAt: string;
}

/**
 * What the merchant console shows of the Callback API: the latest callbacks, and
 * each message's latest state (for a campaign's per-number results). In memory,
 * bounded: the receiver's own database keeps them all.
 */
export class CallbackLog {
  readonly #recent = new Map<string, ReceivedCallback[]>();
  readonly #counts = new Map<string, number>();
  readonly #states = new Map<string, { state: string; at: string }>();

  constructor(
    private readonly maxRecent = 200,
    private readonly maxMessages = 200_000,
  ) {}

  add(event: CallbackEvent, receivedAt: Date): void {
    const entry: ReceivedCallback = {
      eventId: event.eventId,
      type: event.type,
      messageId: event.messageId,
      subId: event.subId,
      msisdn: event.msisdn,
      occurredAt: String(event.occurredAt),
      receivedAt: receivedAt.toISOString(),
    };
    // Kept per type: a thousand deliveries must not push the one read callback out of sight.
    const recent = this.#recent.get(event.type) ?? [];
    recent.unshift(entry);
    if (recent.length > this.maxRecent) recent.pop();
    this.#recent.set(event.type, recent);
    this.#counts.set(event.type, (this.#counts.get(event.type) ?? 0) + 1);
    const state = event.type.replace(/^push\./, '').toUpperCase();
    const known = this.#states.get(event.messageId);
    // At least once and in any order: READ is never taken back by a late DELIVERED.
    if (known?.state !== 'READ' || state === 'READ') this.#states.set(event.messageId, { state, at: entry.occurredAt });
    if (this.#states.size > this.maxMessages) this.#states.delete(this.#states.keys().next().value!);
  }

  /** The latest callbacks of a type (or of every type), newest first. */
  recent(type?: string): ReceivedCallback[] {
    if (type !== undefined) return [...(this.#recent.get(type) ?? [])];
    return [...this.#recent.values()]
      .flat()
      .sort((a, b) => b.receivedAt.localeCompare(a.receivedAt))
      .slice(0, this.maxRecent);
  }

  /** How many callbacks of each type arrived. */
  counts(): Record<string, number> {
    return Object.fromEntries(this.#counts);
  }

  stateOf(messageId: string): { state: string; at: string } | undefined {
    return this.#states.get(messageId);
  }
}
