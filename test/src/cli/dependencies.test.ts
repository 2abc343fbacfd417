import { createServer, type Server } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { childTestTimeout, waitForOutput } from '../../support/cli-child.js';
import { exited, runCli, spawnCli } from './support.js';

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('serve with Redis and the Pay API away at start', () => {
  let redisPort: number;
  let payPort: number;
  beforeAll(async () => {
    redisPort = await closedPort();
    payPort = await closedPort();
  });
  const env = () => ({
    REDIS_URL: `redis://:s3cret@127.0.0.1:${redisPort}`,
    WPK_PAY_URL: `http://127.0.0.1:${payPort}`,
  });

  it(
    'says each in one warn line naming it and starts all the same',
    async () => {
      const child = spawnCli(['serve', '--demo', '--port', '0'], env());
      const output = { text: '' };
      try {
        // Both warnings, in either order (the probes run beside the start-up).
        await waitForOutput(
          child,
          output,
          /"dependency":"Redis"[\s\S]*"dependency":"the Pay API"|"dependency":"the Pay API"[\s\S]*"dependency":"Redis"/,
          'both warnings',
        );
        const line = (dependency: string) =>
          JSON.parse(output.text.split('\n').find((l) => l.includes(`"dependency":"${dependency}"`))!) as unknown;
        expect(line('Redis')).toMatchObject({
          level: 40,
          target: `redis://:***@127.0.0.1:${redisPort}`,
          reason: 'ECONNREFUSED',
          msg: expect.stringMatching(
            /^Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+ does not answer \(ECONNREFUSED\); starting without it: /,
          ),
        });
        expect(line('the Pay API')).toMatchObject({
          level: 40,
          target: `http://127.0.0.1:${payPort}`,
          reason: 'ECONNREFUSED',
        });
        if (!output.text.includes('"msg":"cash desk server listening"')) {
          await waitForOutput(child, output, /"msg":"cash desk server listening"/, 'the listening line');
        }
        expect(output.text).not.toContain('s3cret');
      } finally {
        child.kill('SIGTERM');
        await exited(child);
      }
    },
    childTestTimeout(),
  );

  it(
    'ends the start with one line and exit code 1 under --require-dependencies',
    async () => {
      const { code, stdout, stderr } = await runCli(
        ['serve', '--demo', '--port', '0', '--require-dependencies'],
        env(),
      );
      expect(code).toBe(1);
      expect(stderr).toMatch(
        new RegExp(
          '^wallet-partner-kit: cannot reach (Redis at redis://:\\*\\*\\*@|the Pay API at http://)' +
            '127\\.0\\.0\\.1:\\d+ ' +
            '\\(ECONNREFUSED\\); --require-dependencies \\(requireDependencies\\) makes that fatal\\n$',
        ),
      );
      expect(stdout).not.toContain('listening');
    },
    childTestTimeout(),
  );
});
