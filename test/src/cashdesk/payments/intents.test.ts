import { describe, expect, it } from 'vitest';
import { INTENT_NAMES, intentOf } from '../../../../src/cashdesk/payments/intents.js';
import { CashDeskPayments } from '../../../../src/cashdesk/payments/service.js';

describe('PAYMENT_INTENTS', () => {
  it('has a handler for each intent: the method of its name on CashDeskPayments', () => {
    const missing = INTENT_NAMES.filter(
      (name) => typeof (CashDeskPayments.prototype as unknown as Record<string, unknown>)[name] !== 'function',
    );
    expect(missing).toEqual([]);
  });

  it('lists PAYMENT_BUSY and PAYMENT_MOVED among the codes of each intent that claims the payment', () => {
    const claiming = INTENT_NAMES.filter((name) => intentOf(name).claims);
    expect(claiming.length).toBeGreaterThan(0);
    for (const name of claiming) {
      expect({ name, errors: intentOf(name).errors }).toEqual({
        name,
        errors: expect.arrayContaining(['PAYMENT_BUSY', 'PAYMENT_MOVED']),
      });
    }
  });

  it('gives each HTTP twin a path of its own', () => {
    const paths = INTENT_NAMES.flatMap((name) => intentOf(name).http?.path ?? []);
    expect(new Set(paths).size).toBe(paths.length);
  });
});
