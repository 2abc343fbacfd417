import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeepAliveConnection } from '../../../../src/cli/bench/http-connection.js';

describe('KeepAliveConnection', () => {
  let server: Server;
  let base: string;
  const sockets = new Set<unknown>();

  beforeAll(async () => {
    // node:http, not ours, answers: a content-length answer, a chunked one, and one that closes the connection.
    server = createServer((req, res) => {
      sockets.add(req.socket);
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString();
      });
      req.on('end', () => {
        if (req.url === '/chunked') {
          res.writeHead(201, { 'content-type': 'application/json' });
          res.write('{"echo":');
          res.end(`${JSON.stringify(body)}}`);
        } else if (req.url === '/close') {
          res.writeHead(200, { connection: 'close', 'content-length': Buffer.byteLength(body) }).end(body);
        } else {
          res.writeHead(200, { 'content-length': Buffer.byteLength(body) }).end(body);
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends requests one after another on one socket and reads content-length answers', async () => {
    const connection = new KeepAliveConnection(new URL(`${base}/echo`), { 'content-type': 'application/json' });
    const before = sockets.size;
    for (const n of [1, 2, 3])
      expect(await connection.post(`{"n":${n},"é":"ü"}`)).toEqual({ status: 200, body: `{"n":${n},"é":"ü"}` });
    expect(sockets.size - before).toBe(1);
    connection.close();
  });

  it('reads a chunked answer with its status', async () => {
    const connection = new KeepAliveConnection(new URL(`${base}/chunked`), {});
    expect(await connection.post('{"a":1}')).toEqual({ status: 201, body: '{"echo":"{\\"a\\":1}"}' });
    expect(await connection.post('{"b":2}')).toEqual({ status: 201, body: '{"echo":"{\\"b\\":2}"}' });
    connection.close();
  });

  it('opens a new socket after an answer that says connection: close', async () => {
    const connection = new KeepAliveConnection(new URL(`${base}/close`), {});
    const before = sockets.size;
    expect((await connection.post('{}')).body).toBe('{}');
    expect((await connection.post('{"x":1}')).body).toBe('{"x":1}');
    expect(sockets.size - before).toBe(2);
    connection.close();
  });

  it('rejects with the socket error when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const connection = new KeepAliveConnection(new URL(`http://127.0.0.1:${port}/`), {});
    await expect(connection.post('{}')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
