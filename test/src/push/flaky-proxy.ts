import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP proxy in front of the sandbox that loses answers: the first
 * `loseAnswers` requests ARE forwarded and processed upstream, then the
 * client's connection is cut before any answer, the way a network failure
 * looks to a client that cannot tell whether its request got through.
 */
export async function startFlakyProxy(
  upstream: string,
  loseAnswers: number,
): Promise<{ url: string; forwarded: () => number; close(): Promise<void> }> {
  let forwarded = 0;
  let toLose = loseAnswers;
  const read = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  const server = createServer(async (req, res) => {
    const body = await read(req);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
        headers.set(name, value);
    }
    const answer = await fetch(upstream + req.url, {
      method: req.method,
      headers,
      body: body.length > 0 ? body : undefined,
    });
    const text = Buffer.from(await answer.arrayBuffer());
    forwarded++;
    if (toLose > 0) {
      toLose--;
      req.socket.destroy();
      return;
    }
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(name)) out[name] = value;
    });
    res.writeHead(answer.status, out).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    forwarded: () => forwarded,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
