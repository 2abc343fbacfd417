import { createServer } from 'node:http';
import { benchVerifier, ready } from './common.js';

// Baseline: the least a server can do around the same verifier. No auth, no
// schema, no metrics: node:http, JSON.parse, barcodeVerify, JSON.stringify.
const verifier = benchVerifier();
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const { fullBarcode } = JSON.parse(Buffer.concat(chunks).toString()) as { fullBarcode: string };
    const body = JSON.stringify(verifier.barcodeVerify(fullBarcode));
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
});
server.listen(0, '127.0.0.1', () => ready((server.address() as { port: number }).port));
