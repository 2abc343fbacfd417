import { describe, expect, it } from 'vitest';
import { KitError } from '../../../src/errors.js';
import { connectionFailure, databaseUnavailable, isDatabaseUnavailable } from '../../../src/db/unavailable.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('connectionFailure', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED'), 'ECONNREFUSED'],
    ['a reset connection', withCode('ECONNRESET'), 'ECONNRESET'],
    ['a connect timing out in the kernel', withCode('ETIMEDOUT'), 'ETIMEDOUT'],
    ['a connection exception (class 08)', withCode('08006'), '08006'],
    ['an administrator shutdown', withCode('57P01'), '57P01'],
    ['a crash shutdown', withCode('57P02'), '57P02'],
    ['a server starting up', withCode('57P03'), '57P03'],
    ['pg losing its connection', new Error('Connection terminated unexpectedly'), 'connection terminated'],
    ['pg-pool timing out a connect', new Error('timeout exceeded when trying to connect'), 'connect timeout'],
    ['pg-pool ending a slow connect', new Error('Connection terminated due to connection timeout'), 'connect timeout'],
    [
      'a client already broken',
      new Error('Client has encountered a connection error and is not queryable'),
      'connection lost',
    ],
    ['a dual-stack connect refused on both', new AggregateError([withCode('ECONNREFUSED')]), 'ECONNREFUSED'],
    ['a wrapped refusal', new Error('outer', { cause: withCode('ECONNREFUSED') }), 'ECONNREFUSED'],
  ])('names %s as a connection failure', (_what, error, reason) => {
    expect(connectionFailure(error)).toBe(reason);
  });

  it.each([
    ['a unique violation', withCode('23505', 'duplicate key value violates unique constraint')],
    ['a syntax error', withCode('42601', 'syntax error at or near "SELEC"')],
    ['a serialization failure', withCode('40001')],
    ['a bad password', withCode('28P01', 'password authentication failed for user "u"')],
    ['a plain error', new Error('something else')],
    ['a string', 'ECONNREFUSED'],
  ])('leaves %s to its caller', (_what, error) => {
    expect(connectionFailure(error)).toBeUndefined();
  });
});

describe('databaseUnavailable', () => {
  it('is a KitError DATABASE_UNAVAILABLE naming only the reason', () => {
    const error = databaseUnavailable('ECONNREFUSED');
    expect(error).toBeInstanceOf(KitError);
    expect(error.code).toBe('DATABASE_UNAVAILABLE');
    expect(error.message).toBe('the database is unavailable (ECONNREFUSED): retry later');
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('is recognised after crossing a thread, as a KitError with its code only', () => {
    expect(isDatabaseUnavailable(new KitError('DATABASE_UNAVAILABLE', 'relayed'))).toBe(true);
    expect(isDatabaseUnavailable(new KitError('STORE_UNAVAILABLE', 'other'))).toBe(false);
    expect(isDatabaseUnavailable(withCode('ECONNREFUSED'))).toBe(false);
  });
});
