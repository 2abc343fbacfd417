import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { join } from 'node:path';

/** Debian's nginx binary (`.ci/run` installs it). */
export const NGINX = '/usr/sbin/nginx';

/** A loopback port free a moment ago (nginx needs a number in its configuration). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Where `deploy/nginx.conf` is pointed for a test run. */
export interface NginxSite {
  /** The port nginx listens on (TLS), on 127.0.0.1. */
  port: number;
  /** The kit's port on 127.0.0.1. */
  upstreamPort: number;
  cert: string;
  key: string;
}

/**
 * `deploy/nginx.conf` with its listen ports, upstream and certificate put where a test has them; everything else is
 * the file as shipped. Throws when a line to replace is missing (the recipe changed: update the test with it).
 */
export function siteFor(site: NginxSite, recipe = readFileSync('deploy/nginx.conf', 'utf8')): string {
  const replacements: Array<[RegExp, string]> = [
    [/^ {4}listen 443 ssl;$/m, `    listen 127.0.0.1:${site.port} ssl;`],
    [/^ {4}listen \[::\]:443 ssl;\n/m, ''],
    [/^ {4}server 127\.0\.0\.1:8080;$/m, `    server 127.0.0.1:${site.upstreamPort};`],
    [/^ {4}ssl_certificate {5}\S+;$/m, `    ssl_certificate     ${site.cert};`],
    [/^ {4}ssl_certificate_key \S+;$/m, `    ssl_certificate_key ${site.key};`],
  ];
  let text = recipe;
  for (const [pattern, value] of replacements) {
    if (!pattern.test(text)) throw new Error(`deploy/nginx.conf: no line matching ${pattern}`);
    text = text.replace(pattern, value);
  }
  return text;
}

/** A running unprivileged nginx and its error log. */
export interface RunningNginx {
  errorLog(): string;
  stop(): Promise<void>;
}

/**
 * Runs nginx in the foreground as this user, all its files in `dir`, serving `siteText` inside a minimal main
 * configuration; resolves once its port accepts (a bounded wait).
 */
export async function startNginx(dir: string, siteText: string, port: number): Promise<RunningNginx> {
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, sub), { recursive: true });
  writeFileSync(join(dir, 'site.conf'), siteText);
  const main = `worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} info;
events { worker_connections 512; }
http {
  access_log ${join(dir, 'access.log')};
  client_body_temp_path ${join(dir, 'body')};
  proxy_temp_path ${join(dir, 'proxy')};
  fastcgi_temp_path ${join(dir, 'fastcgi')};
  uwsgi_temp_path ${join(dir, 'uwsgi')};
  scgi_temp_path ${join(dir, 'scgi')};
  include ${join(dir, 'site.conf')};
}
`;
  writeFileSync(join(dir, 'nginx.conf'), main);
  const child: ChildProcess = spawn(
    NGINX,
    ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const errorLog = () => {
    const file = join(dir, 'error.log');
    return `${stderr}${existsSync(file) ? readFileSync(file, 'utf8') : ''}`;
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${errorLog()}`);
    if (await accepts(port)) return { errorLog, stop };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error(`nginx did not listen within 20 s: ${errorLog()}`);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
