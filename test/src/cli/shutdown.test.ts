import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { childTestTimeout, waitForOutput } from '../../support/cli-child.js';
import { root } from './support.js';

/** Whether something accepts connections on `port` now. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

// As npx runs a bin: `npm exec` -> `sh -c <bin> args` -> node. npx forwards SIGTERM to the shell only, which dies
// without passing it on (the `; exit` keeps any shell from exec'ing node in its place, as dash does not for npx).
describe('exitOnSignals', () => {
  it.each([
    ['serve', ['serve', '--demo', '--port', '0'], /HTTP\s+http:\/\/127\.0\.0\.1:(\d+)/],
    ['loyalty', ['loyalty', '--demo', '--port', '0'], /URL\s+http:\/\/127\.0\.0\.1:(\d+)/],
  ])(
    'stops %s when npm that started it is gone (SIGTERM to the shell npx runs it in)',
    async (_name, args, banner) => {
      const cli = join(root, 'dist/src/cli/main.js');
      const quoted = [process.execPath, cli, ...args].map((a) => `'${a}'`).join(' ');
      const shell = spawn('sh', ['-c', `${quoted}; exit $?`], {
        cwd: root,
        env: { ...process.env, npm_command: 'exec', LOG_LEVEL: 'info', DATABASE_URL: undefined },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const output = { text: '' };
      const port = Number((await waitForOutput(shell, output, banner))[1]);
      // The server's own end of the pipes closes when it exits: the shell's ends close with it already.
      const serverGone = new Promise<void>((resolve) => shell.stdout!.on('close', () => resolve()));
      shell.kill('SIGTERM');
      await serverGone;
      expect(output.text).toContain('"signal":"parent exited"');
      expect(await accepts(port)).toBe(false);
    },
    childTestTimeout(),
  );
});
