import type { Logger } from 'pino';
import type { SessionUpdate } from '../../src/contracts/cashdesk-payments.js';
import type { CashDeskService } from '../../src/cashdesk/service.js';

/** The notification a till gets for every phase change and session event of its payments. */
export const SESSION_UPDATED = 'pay.sessionUpdated';

/** `{"jsonrpc":"2.0","method":"pay.sessionUpdated","params":{...}}` (a notification: no id, no answer). */
export function sessionUpdatedText(update: SessionUpdate): string {
  return JSON.stringify({ jsonrpc: '2.0', method: SESSION_UPDATED, params: update });
}

/**
 * Sends a connected till its payments' updates for as long as the connection
 * lives, beginning with the current state of each open payment (a till that
 * reconnects, here or to another instance, learns where each stands).
 */
export function followPayments(service: CashDeskService, tillId: string, send: (text: string) => void, closed: Promise<void>, log: Logger): void {
  const payments = service.payments;
  if (payments === undefined) return;
  const subscribed = payments.subscribe(tillId, (update) => send(sessionUpdatedText(update)));
  void closed.then(() => subscribed).then((unsubscribe) => unsubscribe(), (error: unknown) => {
    log.warn({ err: error }, 'payment updates unavailable for this connection');
  });
}
