import { describe, expect, it } from 'vitest';
import { demoConfig } from '../../../src/demo.js';
import { resolveServeConfig } from '../../../src/server/config.js';

const pay = { url: 'http://127.0.0.1:8090' };

describe('resolveServeConfig, pay.dialect', () => {
  it('defaults to no dialect of its own and ten minutes for unknown statuses', () => {
    const config = resolveServeConfig({ ...demoConfig, pay }, {});
    expect(config.pay).toMatchObject({ dialect: { statuses: {}, errorCodes: {} }, unknownStatusTimeoutMs: 600_000 });
  });

  it('reads the dialect from WPK_PAY_DIALECT as JSON', () => {
    const dialect = { statuses: { PAID: 'successful' }, errorCodes: { cardSessionInvalid: ['SESSION_EXPIRED'] } };
    const config = resolveServeConfig({ ...demoConfig, pay }, { WPK_PAY_DIALECT: JSON.stringify(dialect) });
    expect(config.pay!.dialect).toEqual({ ...dialect, fields: {} });
  });

  it('names WPK_PAY_DIALECT when it is not JSON, without echoing it', () => {
    expect(() => resolveServeConfig({ ...demoConfig, pay }, { WPK_PAY_DIALECT: '{secret' })).toThrow(/pay\.dialect/);
    expect(() => resolveServeConfig({ ...demoConfig, pay }, { WPK_PAY_DIALECT: '{secret' })).not.toThrow(/secret/);
  });

  it('names a key the dialect does not have', () => {
    expect(() =>
      resolveServeConfig({ ...demoConfig, pay: { ...pay, dialect: { errorCodes: { sessionGone: ['X'] } } } }, {}),
    ).toThrow(/pay\.dialect\.errorCodes/);
  });
});

describe('resolveServeConfig, pay.token', () => {
  it("defaults to the kit's scheme", () => {
    expect(resolveServeConfig({ ...demoConfig, pay }, {}).pay!.token).toEqual({ scheme: 'kit' });
  });

  it('takes a scheme or a module, from the file or WPK_PAY_TOKEN', () => {
    const scheme = resolveServeConfig({ ...demoConfig, pay: { ...pay, token: { scheme: 'hmac-sha256-hex' } } }, {});
    expect(scheme.pay!.token).toEqual({ scheme: 'hmac-sha256-hex' });
    const module = resolveServeConfig({ ...demoConfig, pay }, { WPK_PAY_TOKEN: '{"module":"./sign.mjs"}' });
    expect(module.pay!.token).toEqual({ module: './sign.mjs' });
  });

  it.each([{ scheme: 'rsa' }, { module: '' }, { scheme: 'kit', module: './sign.mjs' }, 'kit'])(
    'refuses %o, naming pay.token',
    (token) => {
      expect(() => resolveServeConfig({ ...demoConfig, pay: { ...pay, token } }, {})).toThrow(/pay\.token/);
    },
  );
});
