import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitOf, waitForDemoBanner, type DemoBanner } from '../support/demo-child.js';

/**
 * Issue 24, item 7: the reference tills in examples/ (Java 17 with nothing but the JDK; Python 3 with Debian's
 * python3-websockets) pay one fresh sandbox card against the `demo` system, as a till vendor would run them:
 * `examples/till-*\/run` with WPK_CASHDESK_URL, WPK_TILL_KEY and WPK_SANDBOX_URL. Each drops its connection while
 * the customer confirms, so the outcome reaches it only through the reconnection.
 */

const root = join(import.meta.dirname, '..', '..');
const cli = join(root, 'dist', 'src', 'cli', 'main.js');

/** True when `command args` runs and exits 0; otherwise prints one line naming what is skipped. */
function have(commands: string[], args: string[], skipped: string): boolean {
  if (commands.some((command) => spawnSync(command, args, { stdio: 'ignore' }).status === 0)) return true;
  console.warn(skipped);
  return false;
}

const javaReady = have(['javac'], ['-version'],
  'javac not found: skipping the Java reference till '
  + '(a JDK 17, e.g. apt-get install -y openjdk-17-jdk-headless, to run it)');
// The same Pythons examples/till-python/run tries: Debian's package is in the system Python, which pyenv may shadow.
const pythonReady = have([process.env.PYTHON ?? 'python3', '/usr/bin/python3'], ['-c', 'import websockets'],
  "python3's websockets module not found: skipping the Python reference till "
  + '(apt-get install -y python3-websockets, as .ci/run does, to run it)');

/** The demo system the tills pay against: one child for the file. */
let demo: ChildProcess | undefined;
let banner: DemoBanner;

async function runTill(folder: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(join(root, 'examples', folder, 'run'), [], {
    cwd: root,
    env: {
      ...process.env,
      WPK_CASHDESK_URL: banner.cashDeskUrl,
      WPK_TILL_KEY: banner.tillKey,
      WPK_SANDBOX_URL: banner.sandboxUrl,
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  return { code: await exitOf(child), stdout, stderr };
}

/** What every till's output must show, whatever its language. */
function expectPaidAfterReconnecting(run: { code: number | null; stdout: string; stderr: string }) {
  const said = `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
  expect(run.code, said).toBe(0);
  expect(run.stdout, said).toMatch(/^phase: succeeded$/m);
  // It lost its link after `pending` and learned `succeeded` on the new one (the state sent on reconnection).
  const lines = run.stdout.split('\n');
  const lost = lines.findIndex((line) => line.includes('connection lost'));
  const reconnected = lines.findIndex((line, i) => i > lost && line.includes('connected to'));
  const succeeded = lines.indexOf('phase: succeeded');
  expect(lost, said).toBeGreaterThan(lines.findIndex((line) => /seq \d+: pending/.test(line)));
  expect(reconnected, said).toBeGreaterThan(lost);
  expect(succeeded, said).toBeGreaterThan(reconnected);
  expect(run.stdout, said).toMatch(/^receipt: sent$/m);
  expect(run.stdout, said).toMatch(/^refund: 25000 kopecks, phase refunded$/m);
}

describe.skipIf(!javaReady && !pythonReady)('reference tills against `demo`', () => {
  beforeAll(async () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.DATABASE_URL; // the demo system's own in-memory data, as `npm start` runs it
    demo = spawn(process.execPath, [cli, 'demo', '--port', '0'], { cwd: root, env });
    banner = await waitForDemoBanner(demo, { text: '' });
  }, 480_000);

  afterAll(async () => {
    if (demo === undefined) return;
    const exited = exitOf(demo);
    demo.kill('SIGTERM');
    await exited;
  });

  it.skipIf(!javaReady)('examples/till-java pays a sandbox card: exit 0, succeeded, receipt, refund', async () => {
    expectPaidAfterReconnecting(await runTill('till-java'));
  }, 240_000);

  it.skipIf(!pythonReady)('examples/till-python pays a sandbox card: exit 0, succeeded, receipt, refund', async () => {
    expectPaidAfterReconnecting(await runTill('till-python'));
  }, 120_000);
});
