// A conformance check run's shared state: the server, fresh names for this run, and what earlier subjects found.
import { randomBytes } from 'node:crypto';
import type { CategoryGroup, LoyaltyOperation } from '../../contracts/loyalty/index.js';
import {
  requestOf,
  sendRaw,
  type LoyaltyInputs,
  type LoyaltyTransportOptions,
  type RawAnswer,
} from '../client/transport.js';

/** What the subjects share: the server, names for this run, and what earlier subjects found. */
export interface CheckRun {
  options: LoyaltyTransportOptions;
  clock: () => number;
  /** A name no earlier run used: `wpk-check-<run>-<what>-<random>`. */
  tag: (what: string) => string;
  send<O extends LoyaltyOperation>(operation: O, input: LoyaltyInputs[O]): Promise<RawAnswer>;
  /** A card number no server has issued. */
  unknownCard: string;
  /** The card issueAnonymousCard got, for the subjects that need one. */
  cardNumber?: string;
  /** The categories listCategories got, for the favourites subjects. */
  groups?: CategoryGroup[];
}

/** A run's shared state before its first subject: fresh names, and no card or categories yet. */
export function startCheckRun(options: LoyaltyTransportOptions, clock: () => number): CheckRun {
  return {
    options,
    clock,
    tag: tag(hex(4)),
    send: (operation, input) => sendRaw(options, requestOf(operation, input)),
    unknownCard: `WPK-CHECK-${hex(12)}`,
  };
}

/** `bytes` random bytes as lowercase hex. */
export const hex = (bytes: number) => randomBytes(bytes).toString('hex');

function tag(run: string) {
  return (what: string) => `wpk-check-${run}-${what}-${hex(4)}`;
}
