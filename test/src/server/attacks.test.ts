import { describe } from 'vitest';
import { demoConfig } from '../../../src/demo.js';
import { resolveServeConfig } from '../../../src/server/config.js';
import { startServer } from '../../../src/server/serve.js';
import { attackSuite } from '../../support/attack-suite.js';

describe('cash desk server under attack', () => {
  attackSuite(
    async (limits) => startServer(resolveServeConfig({ ...demoConfig, server: { port: 0, ...limits } }, {})),
    {
      path: '/v1/barcode/verify',
      headers: { Authorization: `Bearer ${demoConfig.tills[0].key}` },
      bodyLimitBytes: 1024 * 1024,
    },
  );
});
