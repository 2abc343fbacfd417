import type { PaymentView, SessionUpdate } from '../shared/types';

/** A prompt for the operator: what to tell the customer or do now (document section 7). */
export interface Prompt {
  kind: 'ok' | 'warn' | 'error' | 'info';
  title: string;
  text: string;
}

/** The prompt a session event calls for, if any. */
export function eventPrompt(update: SessionUpdate): Prompt | undefined {
  switch (update.event) {
    case 'offerWalletPay':
      return {
        kind: 'info',
        title: 'Offer the wallet',
        text: 'Wallet payment is possible: ask the customer whether to pay with the wallet app.',
      };
    case 'showProviderMessages':
      return {
        kind: 'warn',
        title: 'No wallet payment',
        text:
          (update.messages ?? []).map((m) => `${m.name}: ${m.message}`).join(' · ') ||
          'No provider is available: take another payment method.',
      };
    case 'tellCustomerNotToConfirm':
      return {
        kind: 'warn',
        title: 'Tell the customer NOT to confirm in the app',
        text:
          update.reason === 'BASKET_CHANGED'
            ? 'The basket changed: the old invoice is being cancelled and an updated one will appear.'
            : 'The payment is being cancelled: a confirmed payment could not be cancelled any more.',
      };
    case 'rescanNeeded':
      return {
        kind: 'warn',
        title: 'Scan the card again',
        text:
          update.reason === 'REFUNDED'
            ? 'After a refund a new payment starts with a new scan.'
            : "The card session was refused: scan the customer's barcode again (a new one).",
      };
    case 'lateResult':
      return {
        kind: 'warn',
        title: 'A result came after the cancellation',
        text:
          update.status === 'succeeded'
            ? 'The bank had already received the payment: it succeeded. Refund it if the customer does not buy.'
            : `The bank answered ${update.status ?? 'late'}.`,
      };
    case 'cardRefused':
      return {
        kind: 'error',
        title: 'The wallet service refused the card',
        text: `Tell the customer that operations with the card are impossible (${update.reason ?? 'token refused'}).`,
      };
    default:
      return undefined;
  }
}

/** What the phase means for the operator. */
export function phasePrompt(p: PaymentView): Prompt {
  switch (p.phase) {
    case 'new':
    case 'checking':
    case 'checkout':
    case 'rescanning':
      return { kind: 'info', title: 'Working…', text: 'Talking to the wallet service.' };
    case 'offered':
      return {
        kind: 'info',
        title: 'Wallet payment is possible',
        text: 'Ask the customer. If they agree, check out; the invoice appears in their app.',
      };
    case 'unavailable':
      return {
        kind: 'warn',
        title: 'No wallet payment for this customer',
        text:
          p.providers.map((pr) => `${pr.name}: ${pr.message ?? 'unavailable'}`).join(' · ') ||
          'Take another payment method.',
      };
    case 'pending':
      return {
        kind: 'info',
        title: 'Waiting for the customer',
        text: 'The customer confirms the invoice in the wallet app.',
      };
    case 'unknown':
      return {
        kind: 'warn',
        title: 'No answer from the wallet service',
        text: 'Try again: the same checkout is repeated, nothing is paid twice.',
      };
    case 'succeeded':
      return { kind: 'ok', title: 'Paid', text: 'Send the receipt. Refund if the customer wants the money back.' };
    case 'unsuccessful':
      return {
        kind: 'error',
        title: `Not paid${p.reason ? ` (${p.reason})` : ''}`,
        text:
          p.reason === 'INSUFFICIENT_FUNDS'
            ? 'Not enough funds: once the customer has topped up, retry; or take another payment method.'
            : p.status === 'cancelled'
              ? 'Cancelled. Retry with an updated checkout, or take another payment method.'
              : 'Retry with an updated checkout, or take another payment method.',
      };
    case 'refunded':
      return { kind: 'info', title: 'Refunded', text: 'A new payment needs a new scan of the card.' };
    case 'blocked':
      return {
        kind: 'error',
        title: 'Operations with the card are impossible',
        text: 'The wallet service refused the card: tell the customer.',
      };
    case 'abandoned':
      return { kind: 'info', title: 'Another payment method', text: 'The wallet payment was dropped.' };
    default:
      return { kind: 'info', title: p.phase, text: '' };
  }
}
