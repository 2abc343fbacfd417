import { createHmac, randomFillSync } from 'node:crypto';

/**
 * Baseline for getToken: the same JWS (header with iat and a 16-byte jti,
 * detached unencoded payload) signed with node:crypto createHmac. It draws
 * its jti from a refilled pool as the kit does, so only the signing differs.
 */
export function createNodeCryptoSigner(partnerKeyHex: string, options: { validateJson: boolean }) {
  const tokenKey = createHmac('sha256', Buffer.from(partnerKeyHex, 'hex')).update('token').digest();
  const pool = Buffer.alloc(4096);
  let cursor = pool.length;
  return (requestData: string): string => {
    if (options.validateJson) JSON.parse(requestData);
    if (cursor + 16 > pool.length) {
      randomFillSync(pool);
      cursor = 0;
    }
    const jti = pool.toString('base64url', cursor, cursor + 16);
    cursor += 16;
    const header = Buffer.from(
      `{"alg":"HS256","b64":false,"crit":["b64"],"iat":${Math.floor(Date.now() / 1000)},"jti":"${jti}"}`,
    ).toString('base64url');
    const signature = createHmac('sha256', tokenKey).update(`${header}.`).update(requestData).digest('base64url');
    return `${header}..${signature}`;
  };
}
