import { copyFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpServerHandle } from '../../../adapters/http-server/serve.js';
import { type CallbackReceiver, createCallbackReceiver } from '../../../src/entries/callback.js';
import { generateWebhookSecret } from '../../../src/entries/webhooks.js';
import { type Database, openDatabase } from '../../../src/db/index.js';
import { makeCertificate } from '../../support/tls-cert.js';

/** The subject CN of the certificate a fresh TLS connection to `url` is shown. */
function certificateName(url: string, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/openapi.json`, { ca, agent: false }, (res) => {
      resolve(String((res.socket as TLSSocket).getPeerCertificate().subject.CN));
      res.resume();
    });
    req.on('error', reject);
    req.end();
  });
}

describe('callback receiver TLS reload', () => {
  let receiver: CallbackReceiver | undefined;
  let db: Database | undefined;
  afterEach(async () => {
    await receiver?.close();
    await db?.close();
  });

  it('shows new connections the new certificate after reloadTls, and keeps the old one on bad files', async () => {
    const first = makeCertificate('first');
    const live = { cert: `${first.cert}.live`, key: `${first.key}.live` };
    copyFileSync(first.cert, live.cert);
    copyFileSync(first.key, live.key);
    db = await openDatabase();
    receiver = await createCallbackReceiver({ secrets: generateWebhookSecret(), database: db });
    const handle: HttpServerHandle = await receiver.listen({ tls: live });
    expect(await certificateName(handle.url, first.pem)).toBe('first');
    const second = makeCertificate('second');
    copyFileSync(second.cert, live.cert);
    copyFileSync(second.key, live.key);
    expect(handle.reloadTls()).toBe(true);
    expect(await certificateName(handle.url, second.pem)).toBe('second');
    writeFileSync(live.cert, 'not a certificate');
    expect(handle.reloadTls()).toBe(false);
    expect(await certificateName(handle.url, second.pem)).toBe('second');
  });
});
