import type { CashDeskPayments } from '../../../../src/cashdesk/payments/service.js';
import type { PaymentBasket } from '../../../../src/contracts/cashdesk-payments.js';
import type { CheckoutRequest, TransactionState } from '../../../../src/contracts/pay/bodies.js';
import { signWebhook } from '../../../../src/entries/webhooks.js';
import type { PayClient } from '../../../../src/pay/client.js';

/** One 89.90 milk. */
export const BASKET: PaymentBasket = {
  items: [{ name: 'Milk', article: 'MILK-1', measure: 'PIECE', quantity: 1, price: 8_990 }],
  discountAmount: 0,
};

/**
 * A Pay API offering wallet pay as the default that answers /checkout and /receipt; results come only from
 * webhooks (its /status never answers).
 */
export const webhookOnlyPayClient = {
  profile: 'kit',
  availabilityTask: async () => ({
    taskId: 't',
    walletPayIsDefault: true,
    providers: [{ providerId: 'wallet', name: 'Wallet', available: true }],
  }),
  checkout: async (body: CheckoutRequest) => ({
    transactionId: `trx-${body.cardSession}`,
    requestId: body.requestId,
    status: 'created' as const,
  }),
  status: () => new Promise<never>(() => {}),
  receipt: async ({ transactionId }: { transactionId: string }) => ({ transactionId, status: 'sent' }),
} as unknown as PayClient;

/** The Pay API's word that the {@link BASKET} payment `transactionId` (of the /checkout `requestId`) succeeded. */
export function succeededState(transactionId: string | number, requestId = 'r'): TransactionState {
  return {
    transactionId: String(transactionId),
    requestId,
    status: 'succeeded',
    statusClass: 'successful',
    totalAmount: 8_990,
    refundedAmount: 0,
    updatedAt: new Date().toISOString(),
  };
}

/** `state` as the Pay API's signed `transaction.updated` webhook, handed to `payments`' handler. */
export function sendPayWebhook(payments: CashDeskPayments, secret: string, state: TransactionState): Promise<Response> {
  const body = JSON.stringify({ type: 'transaction.updated', timestamp: new Date().toISOString(), data: state });
  const id = `msg_${state.transactionId}_${state.status}`;
  const headers = signWebhook(secret, { id, timestampSeconds: Math.floor(Date.now() / 1000), body });
  return payments.webhookHandler()!(
    new Request('http://x/webhooks/pay', { method: 'POST', headers: { ...headers }, body }),
  );
}
