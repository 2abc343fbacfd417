import { createServer } from 'node:http';
import { demoConfig } from '../../src/demo.js';
import { benchVerifier, ready } from './common.js';

// Baseline: the least a server can do around the same verifier, with the same
// till auth the kit's hot path does (a remembered key: one Map look-up of the
// Bearer key, 401 without it). No schema, no metrics, no limiter: node:http,
// JSON.parse, barcodeVerify, JSON.stringify.
const verifier = benchVerifier();
const tills = new Map<string, string>(demoConfig.tills.map((till) => [till.key, till.id]));
const BEARER = 'Bearer ';

const server = createServer((req, res) => {
  const authorization = req.headers.authorization;
  const till = authorization?.startsWith(BEARER) ? tills.get(authorization.slice(BEARER.length)) : undefined;
  if (till === undefined) {
    res.writeHead(401, { 'content-type': 'application/json', connection: 'close' }).end('{"status":"UNAUTHORIZED"}');
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const { fullBarcode } = JSON.parse(Buffer.concat(chunks).toString()) as { fullBarcode: string };
    const body = JSON.stringify(verifier.barcodeVerify(fullBarcode, { requester: till }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
});
server.listen(0, '127.0.0.1', () => ready((server.address() as { port: number }).port));
