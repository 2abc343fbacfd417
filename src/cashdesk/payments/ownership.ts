import type { PaymentKey } from './rows.js';

/**
 * How a payment's lease changed on this instance: `claimed` for a till's intent (or handed over), `adopted` once
 * its lease expired, `lost` to another instance, `released` at rest (`ended`: nothing more to drive), `handedOver`
 * to an instance that wanted it, `stray` (held in its row, driven by nothing here), `swept` (a dead or cut-off
 * owner's lease of an ended payment, ended by this instance).
 */
export type OwnershipChange = 'claimed' | 'adopted' | 'lost' | 'released' | 'ended' | 'handedOver' | 'stray' | 'swept';

/** One change of a payment's lease, for the instance's log (ids only, never a card or a basket). */
export interface OwnershipEvent extends PaymentKey {
  change: OwnershipChange;
  /** The epoch this instance held or took (none for a sweep). */
  epoch?: number;
}
