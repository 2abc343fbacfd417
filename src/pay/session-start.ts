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
          s.setPhase('checking');
          continue;
        }
        s.refused(error, 'new');
        s.renewRequestId(); // a task may have been registered: never reuse its requestId
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
