import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { serializeError, withLogPolicy } from '../../../src/log/index.js';
import { captureLog, leakedSecrets } from '../../support/log-capture.js';

const SECRET = 'whsec_bm90LWZvci10aGUtbG9ncw==';

/** An error shaped like PGlite's and pg's: data attached beside the SQLSTATE. */
function driverError() {
  return Object.assign(new Error('invalid input syntax for type integer: "4000123412341234"'), {
    code: '22P02',
    severity: 'ERROR',
    table: 'pay_cards',
    params: ['4000123412341234', SECRET],
    query: 'INSERT ...',
    detail: `Key (secret)=(${SECRET})`,
    where: `PL/pgSQL function with ${SECRET}`,
    queryOptions: { x: SECRET },
  });
}

describe('the log policy', () => {
  it('keeps what failed (type, SQLSTATE, table, stack) and drops params, query, detail and where', () => {
    const out = serializeError(driverError()) as Record<string, unknown>;
    expect(out).toMatchObject({
      type: 'Error',
      code: '22P02',
      severity: 'ERROR',
      table: 'pay_cards',
      message: 'invalid input syntax for type integer: "…"',
    });
    expect(Object.keys(out)).not.toEqual(expect.arrayContaining(['params']));
    const text = JSON.stringify(out);
    expect(leakedSecrets(text, [SECRET, '4000123412341234'])).toEqual([]);
  });

  it('keeps the cause chain under the same rules', () => {
    const out = serializeError(new Error('outer', { cause: driverError() })) as { cause: Record<string, unknown> };
    expect(out.cause).toMatchObject({ code: '22P02' });
    expect(JSON.stringify(out)).not.toContain(SECRET);
  });

  it('removes credentials, bodies and parameters from log lines of createLogger', () => {
    const log = captureLog('info');
    log.logger.error(
      {
        err: driverError(),
        headers: { authorization: `Basic ${SECRET}` },
        password: SECRET,
        body: SECRET,
        params: [SECRET],
        account: { callbackSecret: SECRET, login: 'kept' },
      },
      'failed',
    );
    expect(leakedSecrets(log.text(), [SECRET])).toEqual([]);
    expect(log.lines()[0]).toMatchObject({ msg: 'failed', account: { login: 'kept' }, err: { code: '22P02' } });
  });

  it('holds for a plain pino logger a caller hands in (withLogPolicy)', () => {
    const lines: string[] = [];
    const plain = pino(
      { level: 'info' },
      {
        write: (line: string) => {
          lines.push(line);
        },
      },
    );
    withLogPolicy(plain).warn({ err: driverError(), query: SECRET }, 'refused');
    expect(lines.join('')).not.toContain(SECRET);
    expect(lines.join('')).toContain('22P02');
  });
});
