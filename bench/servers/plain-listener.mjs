// The bare node:http baseline's request listener, plain JavaScript so that both bench/servers/plain-http.ts
// (under tsx, over src/) and bench/callgrind-http/plain-http.mjs (over dist/) serve the very same code: the least a
// server can do around a verifier, with the same till auth the kit's hot path does (a remembered key: one Map look-up
// of the Bearer key, 401 without it). No schema, no metrics, no limiter: JSON.parse, barcodeVerify, JSON.stringify.
const BEARER = 'Bearer ';

/**
 * @param {{ barcodeVerify(fullBarcode: string, options: { requester: string }): unknown }} verifier
 * @param {ReadonlyArray<{ id: string, key: string }>} tillList
 * @returns {import('node:http').RequestListener}
 */
export function plainListener(verifier, tillList) {
  const tills = new Map(tillList.map((till) => [till.key, till.id]));
  return (req, res) => {
    const authorization = req.headers.authorization;
    const till = authorization?.startsWith(BEARER) ? tills.get(authorization.slice(BEARER.length)) : undefined;
    if (till === undefined) {
      res.writeHead(401, { 'content-type': 'application/json', connection: 'close' }).end('{"status":"UNAUTHORIZED"}');
      return;
    }
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const { fullBarcode } = JSON.parse(Buffer.concat(chunks).toString());
      const body = JSON.stringify(verifier.barcodeVerify(fullBarcode, { requester: till }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
  };
}
