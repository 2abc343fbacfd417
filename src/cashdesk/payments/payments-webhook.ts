// The payments service's `POST /webhooks/pay` handler: a verified Pay state stored, then sent on to its payment.
import { createPayWebhookHandler } from '../../pay/webhook.js';
import type { TransactionUpdates } from '../../pay/updates.js';
import type { Coordination } from './coordination.js';
import type { CashDeskPaymentsOptions } from './options.js';
import type { PaymentStore } from './store.js';

/** The parts of the payments service the webhook handler reaches. */
export interface PaymentsWebhookParts {
  updates: TransactionUpdates;
  clock: () => number;
  store: PaymentStore;
  coordination: Coordination;
}

/**
 * The `POST /webhooks/pay` handler (Standard Webhooks, the configured
 * secret), or undefined without a secret. A verified state is stored before
 * the 2xx (a failed write answers 500: the service sends it again), reaches
 * the sessions here, and the instance driving its payment through a hint.
 */
export function paymentsWebhookHandler(
  options: CashDeskPaymentsOptions,
  parts: PaymentsWebhookParts,
): ((request: Request) => Promise<Response>) | undefined {
  const secret = options.webhookSecret;
  if (secret === undefined) return undefined;
  return createPayWebhookHandler({
    secrets: secret,
    updates: parts.updates,
    clock: parts.clock,
    dialect: options.client.dialect,
    onEvent: async (event) => {
      // In memory (writes behind) nothing outlives the process and no other instance reads: nothing to keep.
      if (options.writeBehind === true) return;
      await parts.store.saveState(event.data);
      parts.coordination.hint({ kind: 'state', transactionId: String(event.data.transactionId) });
    },
  });
}
