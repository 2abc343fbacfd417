import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import { demoConfig } from '../../../src/demo.js';
import { resolveServeConfig } from '../../../src/server/config.js';
import { resolveServerLimits } from '../../../adapters/http-server/server-limits.js';

describe('serve configuration: connection limits', () => {
  it('leaves the limits unset by default, so the servers apply DEFAULT_SERVER_LIMITS', () => {
    const { server } = resolveServeConfig(demoConfig, {});
    expect(server.headersTimeoutMs).toBeUndefined();
    expect(resolveServerLimits({})).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 1024,
    });
  });

  it('reads them from the file and from WPK_* variables, the variables winning', () => {
    const { server } = resolveServeConfig(
      { ...demoConfig, server: { headersTimeoutMs: 2_000, maxWsConnections: 50 } },
      {
        WPK_REQUEST_TIMEOUT_MS: '4000',
        WPK_KEEP_ALIVE_TIMEOUT_MS: '1000',
        WPK_MAX_CONNECTIONS: '64',
        WPK_MAX_WS_CONNECTIONS_PER_TILL: '4',
        WPK_HEADERS_TIMEOUT_MS: '3000',
      },
    );
    expect(server).toMatchObject({
      headersTimeoutMs: 3_000,
      requestTimeoutMs: 4_000,
      keepAliveTimeoutMs: 1_000,
      maxConnections: 64,
      maxWsConnections: 50,
      maxWsConnectionsPerTill: 4,
    });
  });

  it('names a bad value and a headers timeout longer than the request timeout', () => {
    expect(() => resolveServeConfig({ ...demoConfig, server: { maxConnections: 0 } }, {})).toThrow(ConfigError);
    expect(() => resolveServeConfig(demoConfig, { WPK_HEADERS_TIMEOUT_MS: '40000' })).toThrow(
      expect.objectContaining({ issues: ['server.headersTimeoutMs: must not exceed server.requestTimeoutMs'] }),
    );
    expect(() => resolveServerLimits({ headersTimeoutMs: 5, requestTimeoutMs: 4 })).toThrow(ConfigError);
  });
});
