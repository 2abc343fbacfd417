import type { CardProvider, CardSessionRecord } from './cards.js';
import type { PayRuntime } from './runtime.js';
import { payRefusal } from './pay-refusals.js';

const DISABLED = 'Wallet payment is not enabled for this customer';

/**
 * The providers the customer of a card session is offered: the card's own
 * list when the simulator gave one, else the module's, all available; every
 * one unavailable (with the reason in `message`) when wallet payment is off
 * for the customer.
 */
export function providersFor(rt: PayRuntime, session: CardSessionRecord): CardProvider[] {
  const list: CardProvider[] =
    session.providers ?? rt.options.providers.map((p) => ({ providerId: p.providerId, name: p.name, available: true }));
  return list.map((p) =>
    session.payEnabled
      ? {
          providerId: p.providerId,
          name: p.name,
          available: p.available,
          ...(p.message === undefined ? {} : { message: p.message }),
        }
      : { providerId: p.providerId, name: p.name, available: false, message: p.message ?? DISABLED },
  );
}

/** `walletPayIsDefault` for the customer: the card's setting, and only while some provider is available. */
export function walletPayIsDefault(session: CardSessionRecord, providers: readonly CardProvider[]): boolean {
  return session.walletPayIsDefault && providers.some((p) => p.available);
}

/** 400 when a providerId is not one this customer is offered. */
export function requireOffered(
  providers: readonly CardProvider[],
  providerId: string | undefined,
  field: string,
): void {
  if (providerId !== undefined && !providers.some((p) => p.providerId === providerId)) {
    throw payRefusal('BAD_REQUEST', [`${field}: not a provider offered to this customer`]);
  }
}
