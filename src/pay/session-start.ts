import type { AvailabilityAnswer } from '../contracts/pay/answers.js';
import { PayError } from './errors.js';
import { checkout } from './session-checkout.js';
import type { SessionCore } from './session-core.js';
import type { PaymentPhase } from './session-types.js';

/** Part A step 2 and Part B: the provider list, then `unavailable`, the automatic checkout, or `offered`. */
export function start(s: SessionCore): Promise<PaymentPhase> {
  return s.exclusive(['new'], async () => {
    s.beginAvailability();
    let answer: AvailabilityAnswer;
    for (let rescans = 0; ; rescans++) {
      try {
        // Stored before the call: a lost answer is asked again with this requestId, after a restart too.
        await s.o.checkpoint?.();
        answer =
          s.o.availability === 'info'
            ? await s.o.client.availability({ cardSession: s.cardSession })
            : await s.o.client.availabilityTask({
                requestId: s.requestId,
                cardSession: s.cardSession,
                items: s.basket.items,
                discountAmount: s.basket.discountAmount ?? 0,
                totalAmount: s.totalAmount,
                ...(s.o.offers ? { offers: s.o.offers } : {}),
              });
        break;
      } catch (error) {
        if (error instanceof PayError && error.code === 'CARD_SESSION_INVALID' && rescans < s.o.maxRescans) {
          await s.rescan('CARD_SESSION_INVALID', 'new');
          // A new card session, a new task: the old requestId may name one registered with the old session.
          s.renewRequestId();
          s.setPhase('checking');
          continue;
        }
        s.refused(error, 'new');
        // The same task is asked again with the same requestId (the service answers a repeat from what it stored):
        // a new one only when the service says this requestId names another body.
        if (error instanceof PayError && error.code === 'IDEMPOTENCY_CONFLICT') s.renewRequestId();
        throw error;
      }
    }
    s.setProviders(answer.providers, answer.walletPayIsDefault);
    s.emit({ type: 'providers', walletPayIsDefault: answer.walletPayIsDefault, providers: answer.providers });
    const available = answer.providers.filter((p) => p.available);
    if (available.length === 0) {
      s.setPhase('unavailable');
      s.emit({
        type: 'showProviderMessages',
        messages: answer.providers.map((p) => ({
          providerId: p.providerId,
          name: p.name,
          message: p.message ?? 'unavailable',
        })),
      });
      return s.phase;
    }
    if (answer.walletPayIsDefault) {
      await checkout(s, false, 'offered');
      return s.phase;
    }
    s.setPhase('offered');
    s.emit({ type: 'offerWalletPay', providers: available });
    return s.phase;
  });
}
