import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Stoplight Prism (`@stoplight/prism-cli`, a devDependency) as a validating proxy: `prism proxy <document>
 * <upstream> --errors` checks every request and answer that passes through against the OpenAPI document and
 * reports each mismatch in an `sl-violations` header or a Prism error answer (problem+json, type
 * `https://stoplight.io/prism/errors#...`). WPK_PRISM names another prism CLI script.
 */
export const PRISM_CLI: string | undefined = process.env.WPK_PRISM ?? resolvePrismCli();

/** How long Prism may take to say it listens: seconds on a quiet machine, many times that on a loaded 2-core one. */
export const PRISM_START_BOUND_MS = 120_000;

const PRISM_ERROR_TYPE = 'https://stoplight.io/prism/errors#';
const root = join(import.meta.dirname, '..', '..');

function resolvePrismCli(): string | undefined {
  try {
    return join(
      dirname(createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json')),
      'dist',
      'index.js',
    );
  } catch {
    return undefined;
  }
}

const said = new Set<string>();

/** Prints `line` once per process: the one line a skipped contract test leaves. */
export function sayPrismSkip(reason: string): void {
  const line =
    `${reason}: skipping the Prism contract tests (npm ci installs @stoplight/prism-cli; npx vitest run ` +
    `test/src/contracts/prism.test.ts runs them alone)`;
  if (said.has(line)) return;
  said.add(line);
  console.warn(line);
}

/** True when the Prism CLI is installed; otherwise prints one line saying what is skipped. */
export function havePrism(): boolean {
  if (PRISM_CLI && existsSync(PRISM_CLI)) return true;
  sayPrismSkip(`${PRISM_CLI ?? '@stoplight/prism-cli'} not found`);
  return false;
}

/** Prism did not start: the contract tests are skipped with `message`, not failed. */
export class PrismUnavailableError extends Error {
  readonly code = 'PRISM_UNAVAILABLE' as const;
}

/** One running `prism proxy` in front of one server, behind a recorder of what Prism says. */
export interface PrismProxy {
  /** `http://127.0.0.1:<port>`: call this instead of the server (directly, or by giving it to another server). */
  readonly url: string;
  /** The document it validates against, relative to the repository. */
  readonly document: string;
  /**
   * Mismatches since the last call, each with the method, path, status and Prism's text: every `sl-violations`
   * header and every Prism error answer (problem+json of type `https://stoplight.io/prism/errors#...`) of an
   * exchange through {@link url}, whoever made it. Recorded before the answer is passed on.
   */
  takeProblems(): string[];
  /** Every exchange through {@link url} so far, as `METHOD /path -> status`: shows which calls took this way. */
  readonly exchanges: readonly string[];
  /** Stops Prism and the recorder. Idempotent. */
  close(): Promise<void>;
}

// Prism logs through signale; colours are turned off, but a terminal-less child may still get some.
// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC starts the colour sequences this strips
const stripAnsi = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

/**
 * Starts `prism proxy <document> <upstream> --errors` on a free loopback port and, in front of it, a recorder
 * that passes every byte on unchanged (signed bodies stay verifiable) and notes what Prism says: with --errors
 * Prism puts the violation text only in its answers, not in its log. Resolves once both listen. Throws
 * {@link PrismUnavailableError} when the CLI is missing, exits, or does not listen within `startBoundMs`.
 *
 * @example
 * const prism = await startPrismProxy('openapi/loyalty.json', loyalty.url);
 * const client = createLoyaltyClient({ baseUrl: prism.url, ... });
 * expect(prism.takeProblems()).toEqual([]);
 */
export async function startPrismProxy(
  document: string,
  upstream: string,
  { startBoundMs = PRISM_START_BOUND_MS } = {},
): Promise<PrismProxy> {
  if (!PRISM_CLI || !existsSync(PRISM_CLI))
    throw new PrismUnavailableError(`${PRISM_CLI ?? '@stoplight/prism-cli'} not found`);
  const child = spawn(
    process.execPath,
    [PRISM_CLI, 'proxy', document, upstream, '--errors', '--host', '127.0.0.1', '--port', '0'],
    {
      cwd: root,
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const log: string[] = [];
  const prismUrl = await new Promise<URL>((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(
        new PrismUnavailableError(
          `prism proxy ${document} ${why}${log.length ? `; its last lines: ${log.slice(-5).join(' | ')}` : ''}`,
        ),
      );
    };
    const timer = setTimeout(() => fail(`did not listen within ${startBoundMs / 1000} s`), startBoundMs);
    let listening = false;
    readLines(child, (raw) => {
      const line = stripAnsi(raw).trimEnd();
      if (!line) return;
      // Only the last lines are kept, for the message when Prism does not start.
      log.push(line);
      if (log.length > 50) log.shift();
      const address = /Prism is listening on (http:\/\/\S+)/.exec(line)?.[1];
      if (!listening && address) {
        listening = true;
        clearTimeout(timer);
        resolve(new URL(address));
      }
    });
    child.once('error', (error) => fail(`could not start: ${error.message}`));
    child.once('exit', (code, signal) => {
      if (!listening) fail(`exited (${signal ?? code}) before listening`);
    });
  });

  const problems: string[] = [];
  const exchanges: string[] = [];
  const front = createServer((request, response) => {
    const where = `${document}: ${request.method} ${request.url}`;
    const onward = httpRequest(
      {
        host: prismUrl.hostname,
        port: prismUrl.port,
        method: request.method,
        path: request.url,
        headers: endToEnd(request.headers),
        // A connection per exchange: a kept-alive one can be reused just as Prism closes it for idling (5 s), which
        // ends the exchange in ECONNRESET, more often the more loaded the machine.
        agent: false,
      },
      (answer) => {
        const status = answer.statusCode ?? 0;
        exchanges.push(`${request.method} ${request.url} -> ${status}`);
        const violations = answer.headers['sl-violations'];
        if (violations) problems.push(`${where} -> ${status}: sl-violations ${violations}`);
        if (!/problem\+json/.test(answer.headers['content-type'] ?? '')) {
          response.writeHead(status, endToEnd(answer.headers));
          answer.pipe(response);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          const text = body.toString('utf8');
          if (text.includes(PRISM_ERROR_TYPE)) problems.push(`${where} -> Prism answered ${status} ${text}`);
          response.writeHead(status, endToEnd(answer.headers)).end(body);
        });
      },
    );
    onward.on('error', (error) => {
      problems.push(`${where} -> no answer from Prism: ${error.message}`);
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end();
    });
    request.pipe(onward);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;

  let closed: Promise<void> | undefined;
  return {
    url,
    document,
    exchanges,
    takeProblems: () => problems.splice(0),
    close() {
      closed ??= Promise.all([
        new Promise<void>((resolve) => {
          front.close(() => resolve());
          front.closeAllConnections();
        }),
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
          child.once('exit', () => {
            clearTimeout(force);
            resolve();
          });
          child.kill('SIGTERM');
        }),
      ]).then(() => undefined);
      return closed;
    },
  };
}

/** `headers` without the hop-by-hop ones, which belong to one connection and each side sets for its own. */
function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const kept = { ...headers };
  for (const name of ['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade'])
    delete kept[name];
  return kept;
}

function readLines(child: ChildProcess, onLine: (line: string) => void): void {
  for (const stream of [child.stdout!, child.stderr!]) {
    let buffer = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
        onLine(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
      }
    });
  }
}
