import { describe, expect, it } from 'vitest';
import { ANSWER_READERS } from '../../../src/contracts/pay/answers.js';

const { availabilityTask, checkout, status, refund } = ANSWER_READERS;

describe('ANSWER_READERS', () => {
  it('reads a provider list by the named fields, ignoring and reporting extras in any casing', () => {
    const read = availabilityTask(
      {
        walletPayIsDefault: false,
        WalletPayIsDefault: true,
        wallet_pay_is_default: true,
        providers: [
          { providerId: 'wallet-sbp', name: 'SBP', available: true, Fee: 0 },
          { providerId: 'card', name: 'Card', message: 'limit reached', BANK_CODE: '044' },
          { message: null, DisplayName: 'X' },
          'not a provider',
        ],
      },
      {},
    );
    expect(read).toMatchObject({
      ok: true,
      value: {
        walletPayIsDefault: false,
        providers: [
          { providerId: 'wallet-sbp', name: 'SBP', available: true },
          // The document: a provider's message is the reason it is unavailable.
          { providerId: 'card', name: 'Card', message: 'limit reached', available: false },
          { providerId: '', name: '', available: true },
        ],
      },
    });
    expect(read.notUnderstood).toEqual({
      unknown: [
        'WalletPayIsDefault',
        'wallet_pay_is_default',
        'providers[0].Fee',
        'providers[1].BANK_CODE',
        'providers[2].DisplayName',
      ],
      missing: ['providers[1].available', 'providers[2].providerId', 'providers[2].name', 'providers[2].available'],
      invalid: ['providers[3]: must be a JSON object'],
    });
  });

  it('fails only when a field the document names is missing or invalid', () => {
    expect(availabilityTask({ providers: [] }, {})).toMatchObject({
      ok: false,
      errors: ['walletPayIsDefault: missing'],
    });
    expect(availabilityTask({ walletPayIsDefault: 'yes' }, {})).toMatchObject({
      ok: false,
      errors: [expect.stringMatching(/^walletPayIsDefault: /)],
    });
    expect(checkout({ TransactionId: 'trx-1', status: 'created' }, { requestId: 'req-1' })).toMatchObject({
      ok: false,
      errors: ['transactionId: missing'],
      notUnderstood: { unknown: ['TransactionId'] },
    });
    // A status is the service's own word, kept as written (its class comes from the dialect); it must be text.
    expect(status({ transactionId: 'trx-1', status: 'PAID' }, { transactionId: 'trx-1' })).toMatchObject({
      ok: true,
      value: { status: 'PAID' },
    });
    expect(status({ transactionId: 'trx-1', status: 7 }, { transactionId: 'trx-1' })).toMatchObject({
      ok: false,
      errors: [expect.stringMatching(/^status: /)],
    });
    expect(checkout('<html>', {})).toMatchObject({ ok: false, errors: ['body: must be a JSON object'] });
  });

  it("fills the kit's fields from the request or derives them, and reports them missing", () => {
    expect(checkout({ transactionId: 'trx-1' }, { requestId: 'req-1', cardSession: 'AB12' })).toEqual({
      ok: true,
      value: { transactionId: 'trx-1', requestId: 'req-1', status: 'created' },
      notUnderstood: { unknown: [], missing: ['requestId', 'status'], invalid: [] },
    });
    const state = status(
      { status: 'rejected', reason: 'SOMETHING_NEW', Reason_Text: 'declined' },
      { transactionId: 'trx-1' },
    );
    expect(state).toEqual({
      ok: true,
      value: { transactionId: 'trx-1', status: 'rejected' },
      notUnderstood: {
        unknown: ['Reason_Text'],
        missing: ['transactionId', 'requestId', 'totalAmount', 'refundedAmount', 'updatedAt'],
        invalid: [expect.stringMatching(/^reason: /)],
      },
    });
    expect(refund({}, { transactionId: 'trx-1' })).toMatchObject({ ok: true, value: { transactionId: 'trx-1' } });
  });

  it('never puts a value into what it reports', () => {
    const read = status(
      { transactionId: 'trx-1', status: 'PAID', reason: 'secret-reason-value', Secret: 'secret-extra' },
      {},
    );
    expect(JSON.stringify(read.notUnderstood)).not.toMatch(/secret-/);
    const refused = status({ transactionId: 'trx-1', status: ['secret-status-value'] }, {});
    expect(refused.ok).toBe(false);
    expect(JSON.stringify(refused)).not.toMatch(/secret-/);
  });
});
