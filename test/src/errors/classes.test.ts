import { describe, expect, it } from 'vitest';
import { HttpProblem } from '../../../adapters/http-server/problem.js';
import { ClientAborted } from '../../../adapters/http-server/raw-body.js';
import { RelayedRefusal } from '../../../src/cashdesk/payments/errors.js';
import { LeaseLostError } from '../../../src/cashdesk/payments/record-writes.js';
import * as errors from '../../../src/entries/errors.js';
import { CheckFailure } from '../../../src/loyalty/check/expect.js';
import { TooEarly } from '../../../src/sandbox/push/rate.js';

const {
  ArgumentError,
  ConfigError,
  DataDirInUseError,
  KitError,
  LockoutError,
  LoyaltyClientError,
  LoyaltyError,
  MeasureError,
  PayError,
  PaymentSessionError,
  PaymentsError,
  PgliteSnapshotStaleError,
  PushError,
  RequestDataError,
  StoreError,
  WebhookError,
} = errors;

/** One instance of each exported error class, by class name. */
const EXPORTED: Record<string, () => Error> = {
  KitError: () => new KitError('BACKEND_UNAVAILABLE', 'no backend'),
  ConfigError: () => new ConfigError(['port: must be an integer']),
  ArgumentError: () => new ArgumentError(['digits: must be 6 to 10'], 'hotp options'),
  RequestDataError: () => new RequestDataError('not JSON', 3),
  StoreError: () => new StoreError('redis is down'),
  LockoutError: () => new LockoutError('address', 5),
  MeasureError: () => new MeasureError('MEASURE_INEXACT', 'not whole'),
  PayError: () => new PayError('PAY_NETWORK', '/checkout: no answer'),
  PaymentSessionError: () => new PaymentSessionError('SESSION_BUSY', 'another operation runs'),
  PushError: () => new PushError('PUSH_TIMEOUT', '/public/push/single: no answer'),
  LoyaltyError: () => new LoyaltyError('CARD_NOT_FOUND', 'cardNumber: no such card'),
  LoyaltyClientError: () => new LoyaltyClientError('LOYALTY_PROTOCOL', 'off-contract'),
  PaymentsError: () => new PaymentsError('PAYMENT_NOT_FOUND', 'no such payment'),
  WebhookError: () => new WebhookError('WEBHOOK_SIGNATURE_INVALID', 'signature does not match'),
  DataDirInUseError: () => new DataDirInUseError('/tmp/data', 1234),
  PgliteSnapshotStaleError: () => new PgliteSnapshotStaleError('pay', '002_x.sql'),
};

/** Errors the kit throws and catches itself: under the same root, though not exported. */
const INTERNAL: Record<string, () => Error> = {
  HttpProblem: () => new HttpProblem('NOT_FOUND', ['No such route']),
  ClientAborted: () => new ClientAborted(),
  RelayedRefusal: () =>
    new RelayedRefusal({
      source: 'payments',
      code: 'PAYMENT_BUSY',
      message: 'busy',
      errors: [],
    }),
  LeaseLostError: () => new LeaseLostError('p-1'),
  CheckFailure: () => new CheckFailure('expected 200'),
  TooEarly: () => new TooEarly(1500),
};

const exportedClasses = Object.entries(errors)
  .filter(([, value]) => typeof value === 'function' && (value as { prototype?: unknown }).prototype instanceof Error)
  .map(([name]) => name);

describe('wallet-partner-kit/errors', () => {
  it('has a constructed case below for every error class it exports', () => {
    expect(exportedClasses.sort()).toEqual(Object.keys(EXPORTED).sort());
  });

  const all = Object.entries({ ...EXPORTED, ...INTERNAL });
  it.each(all)('makes %s a KitError with a code of the table', (name, make) => {
    const error = make();
    expect(error).toBeInstanceOf(KitError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe(name);
    const { code } = error as InstanceType<typeof KitError>;
    expect(errors.isErrorCode(code), code).toBe(true);
  });
});
