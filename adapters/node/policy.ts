import type { FailureReason } from '../../src/contracts/barcode.js';
import { StoreError } from '../../src/errors.js';
import { MemoryStore } from '../../src/stores/memory.js';
import type { AsyncStore, SyncStore, VerificationStore } from '../../src/stores/store.js';

/** What the store's policy decided for a barcode the core has checked. */
export enum Decision {
  Valid,
  /** Already accepted, asked again by the requester it was accepted for. */
  Repeated,
  Replayed,
  Locked,
  Mismatch,
}

/** The refusal each decision that refuses gives. */
export const REASON_BY_DECISION: Partial<Record<Decision, FailureReason>> = {
  [Decision.Replayed]: 'REPLAYED',
  [Decision.Locked]: 'LOCKED',
  [Decision.Mismatch]: 'CODE_MISMATCH',
};

/**
 * The lockout and replay policy around a verified barcode: failure counters
 * per card, replay marks per password. It decides; the verifier words the
 * answer. Decisions are plain numbers, so a valid scan allocates nothing here.
 */
export class StorePolicy {
  readonly #maxFailures: number;
  readonly #coolDownMs: number;
  /**
   * The store when it is exactly a MemoryStore (a subclass may count differently): its counter count tells that no card
   * has failures.
   */
  readonly #memory: MemoryStore | undefined;

  constructor(store: VerificationStore | undefined, maxFailures: number, coolDownMs: number) {
    this.#maxFailures = maxFailures;
    this.#coolDownMs = coolDownMs;
    this.#memory =
      store !== undefined && Object.getPrototypeOf(store) === MemoryStore.prototype
        ? (store as MemoryStore)
        : undefined;
  }

  /**
   * The failure counter key of a card, or undefined when the store is a
   * MemoryStore holding no counter at all: no card is then locked or has
   * failures to forget, and the key (a concatenation the map must then
   * flatten and hash) is the dearest part of a valid scan's policy.
   */
  #failKey(cardNumber: string): string | undefined {
    return this.#maxFailures > 0 && (this.#memory === undefined || this.#memory.failureCounters > 0)
      ? `fail:${cardNumber}`
      : undefined;
  }

  // The same policy twice, once per store kind: a sync store keeps barcodeVerify
  // synchronous (and free of promise overhead) on the path every till takes.

  /**
   * `markKey` (with `markTtl`) is the replay mark to claim for a valid password, if replay is on; `owner`, whom to
   * claim it for.
   */
  decideSync(
    store: SyncStore,
    ok: boolean,
    cardNumber: string,
    markKey: string | undefined,
    markTtl: number,
    owner: string | undefined,
  ): Decision {
    const failKey = this.#failKey(cardNumber);
    const failures = failKey === undefined ? 0 : store.count(failKey);
    if (this.#maxFailures > 0 && failures >= this.#maxFailures) return Decision.Locked;
    if (!ok) {
      if (this.#maxFailures > 0) store.increment(failKey ?? `fail:${cardNumber}`, this.#coolDownMs);
      return Decision.Mismatch;
    }
    if (markKey !== undefined) {
      if (owner === undefined) {
        if (!store.claim(markKey, markTtl)) return Decision.Replayed;
      } else {
        const claimed = store.claimFor!(markKey, markTtl, owner);
        if (claimed !== true) return claimed === owner ? Decision.Repeated : Decision.Replayed;
      }
    }
    if (failures > 0) store.delete(failKey!);
    return Decision.Valid;
  }

  /** As `decideSync`; a store's failure rejects with StoreError. */
  async decideAsync(
    store: AsyncStore,
    ok: boolean,
    cardNumber: string,
    markKey: string | undefined,
    markTtl: number,
    owner: string | undefined,
  ): Promise<Decision> {
    const failKey = `fail:${cardNumber}`;
    try {
      const failures = this.#maxFailures > 0 ? await store.count(failKey) : 0;
      if (this.#maxFailures > 0 && failures >= this.#maxFailures) return Decision.Locked;
      if (!ok) {
        if (this.#maxFailures > 0) await store.increment(failKey, this.#coolDownMs);
        return Decision.Mismatch;
      }
      if (markKey !== undefined) {
        if (owner === undefined) {
          if (!(await store.claim(markKey, markTtl))) return Decision.Replayed;
        } else {
          const claimed = await store.claimFor!(markKey, markTtl, owner);
          if (claimed !== true) return claimed === owner ? Decision.Repeated : Decision.Replayed;
        }
      }
      if (failures > 0) await store.delete(failKey);
    } catch (error) {
      throw error instanceof StoreError ? error : new StoreError('verification store failed', { cause: error });
    }
    return Decision.Valid;
  }
}
