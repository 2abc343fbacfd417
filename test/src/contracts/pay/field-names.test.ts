import { describe, expect, it } from 'vitest';
import { resolvePayDialect, payDialectSchema } from '../../../../src/contracts/pay/dialect.js';
import { withKitNames } from '../../../../src/contracts/pay/field-names.js';
import { validationErrors } from '../../../../src/contracts/validation-errors.js';

const fields = { providers: 'paymentMethods', providerId: 'code', available: 'enabled', transactionId: 'id' };
const names = resolvePayDialect({ fields }).kitFieldNames;

describe('withKitNames', () => {
  it("renames the top object's fields and those of its lists' objects to the kit's", () => {
    const answer = { paymentMethods: [{ code: 'wallet', name: 'Wallet', enabled: true }], walletPayIsDefault: true };
    expect(withKitNames(answer, names)).toEqual({
      providers: [{ providerId: 'wallet', name: 'Wallet', available: true }],
      walletPayIsDefault: true,
    });
  });

  it("keeps a field named like a mapped kit field apart, so it is never read as the kit's", () => {
    expect(withKitNames({ transactionId: 'other', id: 7 }, names)).toEqual({
      '~transactionId': 'other',
      transactionId: 7,
    });
  });

  it('leaves an answer alone when nothing is mapped, or when it is not an object', () => {
    const answer = { providers: [] };
    expect(withKitNames(answer, new Map())).toBe(answer);
    expect(withKitNames([1], names)).toEqual([1]);
  });
});

describe('payDialectSchema, fields', () => {
  const errors = (value: unknown) => {
    const parsed = payDialectSchema.safeParse(value);
    return parsed.success ? [] : validationErrors(parsed.error, 'dialect');
  };

  it('takes a map from kit names to the service names', () => {
    expect(errors({ fields })).toEqual([]);
    expect(resolvePayDialect({ fields }).fieldName('providers')).toBe('paymentMethods');
    expect(resolvePayDialect({ fields }).fieldName('status')).toBe('status');
  });

  it('refuses a kit name it does not read', () => {
    expect(errors({ fields: { bank: 'x' } })).toEqual(['fields.bank: unknown field']);
  });

  it('refuses one service name for two kit fields', () => {
    expect(errors({ fields: { providerId: 'code', name: 'code' } })).toEqual([
      'fields.name: code is already providerId',
    ]);
  });

  it('refuses a nested map: one level only', () => {
    expect(errors({ fields: { providers: { providerId: 'code' } } })).toEqual([
      expect.stringMatching(/^fields\.providers: /),
    ]);
  });
});
