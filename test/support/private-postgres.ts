import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A PostgreSQL cluster of a test's own: `initdb` into a temporary folder, its
 * own port, started and stopped with `pg_ctl`. Tests that stop or restart
 * PostgreSQL use one of these, never the shared server, because other test
 * files run beside them.
 */
export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  readonly url: string;
  readonly port: number;
  /** Starts the cluster (again) and waits until it accepts connections. */
  start(): Promise<void>;
  /** Stops it at once (`-m immediate`: open connections are cut, as in a crash). */
  stop(): Promise<void>;
  /** Stops it and removes its folder. */
  destroy(): Promise<void>;
}

/** The folder of the machine's PostgreSQL binaries (`pg_config --bindir`), or undefined. */
function binDir(): string | undefined {
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
    return existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a private cluster can be made here; otherwise prints one line naming what is skipped. */
export function havePrivatePostgres(what: string): boolean {
  if (binDir() !== undefined) return true;
  console.warn(`PostgreSQL's initdb and pg_ctl were not found (pg_config --bindir): skipping ${what}`);
  return false;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Makes and starts a private cluster. PostgreSQL refuses to run as root: as
 * root (CI), the cluster belongs to the `postgres` user and its commands run as that user.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir();
  if (bin === undefined) throw new Error('PostgreSQL binaries not found (pg_config --bindir)');
  const dir = mkdtempSync(join(tmpdir(), 'wpk-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const as = (command: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, command), ...args]) : run(join(bin, command), args);
  await as('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const log = join(dir, 'server.log');
  const cluster: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async start() {
      await as('pg_ctl', ['-D', data, '-l', log, '-o', options, '-w', '-t', '120', 'start']);
    },
    async stop() {
      await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', '-t', '120', 'stop']).catch(() => {});
    },
    async destroy() {
      await cluster.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await cluster.start();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return cluster;
}
