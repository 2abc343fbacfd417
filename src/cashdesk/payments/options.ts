import type { BarcodeVerification } from '../../contracts/barcode.js';
import type { Database, SharedChannel } from '../../db/index.js';
import type { Sleep } from '../../time/sleep.js';
import type { PayClient } from '../../pay/client.js';
import type { ChannelListeners } from './coordination.js';
import type { OwnershipEvent } from './ownership.js';
import type { IntentAudit } from './intent-audit.js';

/** Options of {@link CashDeskPayments}. */
export interface CashDeskPaymentsOptions {
  /** The Pay API client (signing with the server's verifier). */
  client: PayClient;
  /** Where payment rows live (migrated by `init()`). */
  db: Database;
  /**
   * The cash desk service's verification, on behalf of the till whose intent it is: that till's own earlier
   * `barcode.verify` of the same scan is the same scan (one scan serves loyalty and payment); another till's is a
   * replay.
   */
  verify(fullBarcode: string, tillId: string): Promise<BarcodeVerification>;
  /** `whsec_...`: `webhookHandler()` verifies `transaction.updated` with it; without it the status is only polled. */
  webhookSecret?: string;
  /** /status polling while a payment waits. Default: the session's (2000 ms, 10 000 ms with a webhook). */
  pollIntervalMs?: number;
  /**
   * How long a payment may show only status words the dialect does not know before it is `unknown`. Default 600 000.
   */
  unknownStatusTimeoutMs?: number;
  /**
   * Several instances on one PostgreSQL: opens the shared channel (LISTEN/NOTIFY hints) with the listeners
   * given. Without it the instance is alone on its database (PGlite), and takes over leases at once.
   */
  openChannel?: (listeners: ChannelListeners) => Promise<SharedChannel>;
  /** How often payments whose lease expired (their instance died) are adopted. Default 2000 ms. */
  adoptIntervalMs?: number;
  /** How long a lease holds without renewal (renewed every third of it). Default 5000 ms. */
  leaseMs?: number;
  /** How long an intent waits for another instance to hand its payment over. Default 15 000 ms. */
  handoffTimeoutMs?: number;
  /** Now, in ms. Default `Date.now`. */
  clock?: () => number;
  /** New paymentIds, requestIds and refundIds. Default `randomUUID`. */
  newId?: () => string;
  sleep?: Sleep;
  /**
   * Writes go behind the till's updates and the Pay calls instead of before
   * them (default false). Only for a database that does not outlive the
   * process (PGlite in memory): there, writing first protects nothing and
   * costs each payment a write's wait per phase.
   */
  writeBehind?: boolean;
  /**
   * Where the payments keep an audit log (`cashdesk_audit`, migrated by the caller): the `ok` record of each intent
   * of AUDITED_IN_WRITE is then written in the statement that writes its effect. Default: none written here.
   */
  audit?: IntentAudit;
  /** Failures nobody is waiting for (a background write, a hint). */
  onError?: (error: unknown, what: string) => void;
  /** Each change of a payment's lease on this instance (claimed, adopted, lost, released, ended): for its log. */
  onOwnership?: (event: OwnershipEvent) => void;
}
