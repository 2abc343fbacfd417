import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoConfig } from '../../../src/demo.js';
import { startDemoSystem, type RunningDemoSystem } from '../../../src/server/demo-system.js';
import { JVM_ONE_SHOT } from '../../support/till-run.js';

const TILL_AUTH = `Authorization: Bearer ${demoConfig.tills[0].key}`;
const LOYALTY_AUTH = `Authorization: Basic ${Buffer.from(
  `${demoConfig.loyalty.login}:${demoConfig.loyalty.password}`,
).toString('base64')}`;

/** Writes `text` on a fresh connection and resolves to everything the server sent until it closed. */
function exchange(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

/**
 * Writes `first`, then `second` on the same connection once the answer to `first` is whole (by its
 * Content-Length), as a client does after offering an upgrade; resolves to everything received until closed.
 */
function inTurn(url: string, first: string, second: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(first));
    let answer = '';
    let sent = false;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      answer += chunk;
      const end = answer.indexOf('\r\n\r\n');
      const length = /^content-length: (\d+)\r?$/im.exec(answer)?.[1];
      if (!sent && end !== -1 && length !== undefined && answer.length >= end + 4 + Number(length)) {
        sent = true;
        socket.write(second);
      }
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

/** Each answer's status code, in order, from what a connection received. */
const statuses = (answer: string) => [...answer.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));

/** The sum of a server's `wpk_http_requests_total` series. */
async function answersCounted(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return [...text.matchAll(/^wpk_http_requests_total\{.*\} (\d+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
}

/** Runs a client of the servers: never synchronously, the servers answer on this process's event loop. */
const run = async (file: string, args: string[], env = process.env) =>
  (await promisify(execFile)(file, args, { env })).stdout;

/** Whether a program is on the PATH. */
const have = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

describe('the four servers for clients the kit did not write', () => {
  let system: RunningDemoSystem;
  let servers: Array<{ name: string; url: string; auth: string; posts: string[] }>;

  beforeAll(async () => {
    system = await startDemoSystem({ port: 0 });
    const postsOf = async (url: string) => {
      const document = (await (await fetch(`${url}/openapi.json`)).json()) as { paths: Record<string, object> };
      const posts = Object.entries(document.paths).filter(([, ops]) => 'post' in ops);
      return posts.map(([path]) => path.replace(/\{[^}]+\}/g, 'p-1'));
    };
    servers = [
      {
        name: 'cash desk',
        url: system.cashDesk.url,
        auth: TILL_AUTH,
        posts: [...(await postsOf(system.cashDesk.url)), '/console/api/campaigns'],
      },
      { name: 'sandbox', url: system.sandbox.url, auth: '', posts: await postsOf(system.sandbox.url) },
      { name: 'Loyalty', url: system.loyalty.url, auth: LOYALTY_AUTH, posts: await postsOf(system.loyalty.url) },
      { name: 'callback receiver', url: system.callbacks.url, auth: '', posts: ['/callback'] },
    ];
  }, 480_000);
  afterAll(() => system?.close());

  it('answers a POST with no body as it answers an empty one, on every POST route, each answer counted', async () => {
    for (const { name, url, auth, posts } of servers) {
      const before = await answersCounted(url);
      let sent = 0;
      for (const path of posts) {
        for (const credentials of auth === '' ? [''] : ['', `${auth}\r\n`]) {
          const head = `POST ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${credentials}`;
          const none = await exchange(url, `${head}\r\n`);
          const empty = await exchange(url, `${head}Content-Length: 0\r\n\r\n`);
          sent += 2;
          expect(statuses(none), `${name} POST ${path}`).toEqual(statuses(empty));
          expect(statuses(none)[0], `${name} POST ${path}`).not.toBe(500);
        }
      }
      // The /metrics read before these answers is counted too where /metrics counts itself.
      expect((await answersCounted(url)) - before - sent, name).toBeLessThanOrEqual(1);
      expect((await answersCounted(url)) - before - sent, name).toBeGreaterThanOrEqual(0);
    }
  });

  it('serves a request offering Upgrade: h2c as HTTP/1.1, body and keep-alive included, and counts it', async () => {
    const h2c = 'Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n';
    for (const { name, url } of servers) {
      const before = await answersCounted(url);
      const answer = await inTurn(
        url,
        `GET /healthz HTTP/1.1\r\nHost: x\r\n${h2c}\r\n`,
        'GET /livez HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      );
      expect(statuses(answer), name).toEqual([200, 200]);
      expect(await answersCounted(url), name).toBeGreaterThanOrEqual(before + 2);
    }
    const body = JSON.stringify({ fullBarcode: 'CM;1;x;1' });
    const verify = await exchange(
      system.cashDesk.url,
      `POST /v1/barcode/verify HTTP/1.1\r\nHost: x\r\n${h2c}${TILL_AUTH}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(statuses(verify)).toEqual([200]);
    expect(verify).toContain('"fullBarcode":"CM;1;x;1"');
    // A WebSocket asked for on an ordinary route is that route's HTTP answer, not a bare 404.
    const ws = await exchange(
      system.cashDesk.url,
      'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, close\r\n' +
        'Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    );
    expect(statuses(ws)).toEqual([200]);
  });

  it.skipIf(!have('curl'))('answers curl --http2 on http:// over HTTP/1.1', async () => {
    const curl = (...args: string[]) =>
      run('curl', ['-s', '--http2', '-o', '/dev/null', '-w', '%{http_code} %{http_version}', ...args]);
    expect(await curl(`${system.cashDesk.url}/healthz`)).toBe('200 1.1');
    const json = ['-H', 'Content-Type: application/json', '-d', '{"fullBarcode":"CM;1;x;1"}'];
    expect(await curl('-X', 'POST', '-H', TILL_AUTH, ...json, `${system.cashDesk.url}/v1/barcode/verify`)).toBe(
      '200 1.1',
    );
    expect(await curl('-X', 'POST', '-H', TILL_AUTH, `${system.cashDesk.url}/v1/payments`)).toBe('400 1.1');
  });

  it.skipIf(!have('javac'))(
    "answers Java's default HttpClient",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'wpk-java-'));
      try {
        writeFileSync(
          join(dir, 'Till.java'),
          `
import java.net.URI;
import java.net.http.*;
public class Till {
  public static void main(String[] a) throws Exception {
    HttpClient client = HttpClient.newHttpClient();
    HttpRequest health = HttpRequest.newBuilder(URI.create(a[0] + "/healthz")).build();
    String body = "{\\"fullBarcode\\":\\"CM;1;x;1\\"}";
    HttpRequest verify = HttpRequest.newBuilder(URI.create(a[0] + "/v1/barcode/verify"))
      .header("Authorization", "Bearer " + a[1]).header("Content-Type", "application/json")
      .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    for (HttpRequest r : new HttpRequest[] { health, verify, health }) {
      HttpResponse<String> answer = client.send(r, HttpResponse.BodyHandlers.ofString());
      System.out.println(answer.statusCode() + " " + answer.version());
    }
  }
}
`,
        );
        const jvm = { ...process.env, JAVA_TOOL_OPTIONS: JVM_ONE_SHOT };
        await run('javac', ['-d', dir, join(dir, 'Till.java')], jvm);
        const out = await run('java', ['-cp', dir, 'Till', system.cashDesk.url, demoConfig.tills[0].key], jvm);
        expect(out.trim().split('\n')).toEqual(['200 HTTP_1_1', '200 HTTP_1_1', '200 HTTP_1_1']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    120_000,
  );

  it.skipIf(!have('promtool'))('passes promtool check metrics on every server', async () => {
    for (const { name, url } of servers) {
      const text = await (await fetch(`${url}/metrics`)).text();
      const check = spawnSync('promtool', ['check', 'metrics'], { input: text });
      expect(`${check.stdout}${check.stderr}`, name).toBe('');
      expect(check.status, name).toBe(0);
    }
  });
});

if (!have('curl')) console.log('curl not installed: the curl --http2 test is skipped');
if (!have('javac')) console.log('javac not installed: the Java HttpClient test is skipped');
if (!have('promtool')) console.log('promtool not installed (Debian package prometheus): the metrics lint is skipped');
