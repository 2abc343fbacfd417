import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  createWebhookVerifier,
  generateWebhookSecret,
  signWebhook,
  verifyWebhook,
  WebhookError,
  type WebhookErrorCode,
} from '../../../src/entries/webhooks.js';
import { testClock } from '../../support/clock.js';

const body = JSON.stringify({
  eventId: 'evt_1',
  type: 'push.delivered',
  messageId: 'm1',
  subId: 's',
  msisdn: '79991234567',
  occurredAt: '2026-11-23T09:00:00Z',
  note: 'привет',
});
const nowSeconds = () => Math.floor(Date.now() / 1000);

function code(fn: () => unknown): WebhookErrorCode | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof WebhookError) return error.code;
    throw error;
  }
  return undefined;
}

describe('verifyWebhook', () => {
  const secret = generateWebhookSecret();

  it('accepts what the standardwebhooks package signs', () => {
    const ts = new Date();
    const signature = new Webhook(secret).sign('msg_ext', ts, body);
    const headers = {
      'webhook-id': 'msg_ext',
      'webhook-timestamp': String(Math.floor(ts.getTime() / 1000)),
      'webhook-signature': signature,
    };
    expect(verifyWebhook(secret, headers, body)).toEqual({
      id: 'msg_ext',
      timestampSeconds: Math.floor(ts.getTime() / 1000),
    });
    expect(verifyWebhook(secret, headers, Buffer.from(body)).id).toBe('msg_ext');
  });

  it('signs what the standardwebhooks package accepts, byte for byte the same signature', () => {
    const ts = nowSeconds();
    const headers = signWebhook(secret, { id: 'msg_ours', timestampSeconds: ts, body });
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(headers['webhook-signature']).toBe(new Webhook(secret).sign('msg_ours', new Date(ts * 1000), body));
  });

  it('refuses a body, id or timestamp changed after signing', () => {
    const ts = nowSeconds();
    const headers = signWebhook(secret, { id: 'msg_t', timestampSeconds: ts, body });
    expect(code(() => verifyWebhook(secret, headers, body.replace('m1', 'm2')))).toBe('WEBHOOK_SIGNATURE_INVALID');
    expect(code(() => verifyWebhook(secret, headers, `${body} `))).toBe('WEBHOOK_SIGNATURE_INVALID');
    expect(code(() => verifyWebhook(secret, { ...headers, 'webhook-id': 'msg_u' }, body))).toBe(
      'WEBHOOK_SIGNATURE_INVALID',
    );
    expect(code(() => verifyWebhook(secret, { ...headers, 'webhook-timestamp': String(ts - 1) }, body))).toBe(
      'WEBHOOK_SIGNATURE_INVALID',
    );
    // The package agrees on every one of them.
    expect(() => new Webhook(secret).verify(body.replace('m1', 'm2'), { ...headers })).toThrow();
  });

  it('refuses a signature padded with characters base64 would skip, or of another version', () => {
    const headers = signWebhook(secret, { id: 'msg_p', timestampSeconds: nowSeconds(), body });
    expect(
      code(() => verifyWebhook(secret, { ...headers, 'webhook-signature': `${headers['webhook-signature']}!!` }, body)),
    ).toBe('WEBHOOK_SIGNATURE_INVALID');
    expect(
      code(() =>
        verifyWebhook(
          secret,
          { ...headers, 'webhook-signature': headers['webhook-signature'].replace('v1,', 'v2,') },
          body,
        ),
      ),
    ).toBe('WEBHOOK_SIGNATURE_INVALID');
    expect(code(() => verifyWebhook(secret, { ...headers, 'webhook-signature': 'v1,' }, body))).toBe(
      'WEBHOOK_SIGNATURE_INVALID',
    );
  });

  it('refuses a timestamp older or newer than the tolerance, and one that is not unix seconds', () => {
    const now = Date.now();
    const old = signWebhook(secret, { id: 'msg_o', timestampSeconds: Math.floor(now / 1000) - 301, body });
    const future = signWebhook(secret, { id: 'msg_f', timestampSeconds: Math.floor(now / 1000) + 301, body });
    expect(code(() => verifyWebhook(secret, old, body, { now }))).toBe('WEBHOOK_TIMESTAMP_STALE');
    expect(code(() => verifyWebhook(secret, future, body, { now }))).toBe('WEBHOOK_TIMESTAMP_STALE');
    expect(verifyWebhook(secret, old, body, { now, toleranceSeconds: 302 }).id).toBe('msg_o');
    expect(code(() => verifyWebhook(secret, { ...old, 'webhook-timestamp': '1e9' }, body, { now }))).toBe(
      'WEBHOOK_TIMESTAMP_STALE',
    );
    // The package refuses the same two.
    expect(() => new Webhook(secret).verify(body, { ...old })).toThrow(/too old/);
    expect(() => new Webhook(secret).verify(body, { ...future })).toThrow(/too new/);
  });

  it('says which header is missing as WEBHOOK_HEADERS_MISSING', () => {
    const headers = signWebhook(secret, { id: 'msg_h', timestampSeconds: nowSeconds(), body });
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const) {
      const { [name]: _dropped, ...rest } = headers;
      expect(code(() => verifyWebhook(secret, rest, body))).toBe('WEBHOOK_HEADERS_MISSING');
    }
  });

  it('reads the headers from a fetch Headers object as well', () => {
    const headers = signWebhook(secret, { id: 'msg_fh', timestampSeconds: nowSeconds(), body });
    expect(verifyWebhook(secret, new Headers({ ...headers }), body).id).toBe('msg_fh');
  });

  it('accepts any of several signatures and any of several secrets (rotation)', () => {
    const [oldSecret, newSecret, other] = [generateWebhookSecret(), generateWebhookSecret(), generateWebhookSecret()];
    const ts = nowSeconds();
    const byOld = signWebhook(oldSecret, { id: 'msg_r', timestampSeconds: ts, body })['webhook-signature'];
    const byNew = signWebhook(newSecret, { id: 'msg_r', timestampSeconds: ts, body })['webhook-signature'];
    const both = { 'webhook-id': 'msg_r', 'webhook-timestamp': String(ts), 'webhook-signature': `${byOld} ${byNew}` };
    expect(verifyWebhook(newSecret, both, body).id).toBe('msg_r');
    expect(verifyWebhook(oldSecret, both, body).id).toBe('msg_r');
    expect(verifyWebhook([other, newSecret], { ...both, 'webhook-signature': byNew }, body).id).toBe('msg_r');
    expect(code(() => verifyWebhook(other, both, body))).toBe('WEBHOOK_SIGNATURE_INVALID');
    // The package takes the space-separated list the same way.
    expect(new Webhook(newSecret).verify(body, both)).toEqual(JSON.parse(body));
  });

  it('refuses a signature made with an unknown secret', () => {
    const headers = signWebhook(generateWebhookSecret(), { id: 'msg_x', timestampSeconds: nowSeconds(), body });
    expect(code(() => verifyWebhook(secret, headers, body))).toBe('WEBHOOK_SIGNATURE_INVALID');
  });

  it('refuses malformed secrets without echoing them', () => {
    for (const bad of [
      'whsec_',
      'whsec_not base64!',
      `whsec_${Buffer.alloc(8).toString('base64')}`,
      `whsec_${Buffer.alloc(100).toString('base64')}`,
    ]) {
      let error: unknown;
      try {
        verifyWebhook(bad, {}, body);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(WebhookError);
      expect((error as WebhookError).code).toBe('WEBHOOK_SECRET_INVALID');
      if (bad.length > 10) expect((error as Error).message).not.toContain(bad.slice(6));
    }
    expect(code(() => createWebhookVerifier([]))).toBe('WEBHOOK_SECRET_INVALID');
  });
});

describe('createWebhookVerifier', () => {
  it('decodes the secrets once and verifies many requests, with the clock it was given', () => {
    const secret = generateWebhookSecret();
    const time = testClock(1_700_000_000_000);
    const verifier = createWebhookVerifier(secret, { toleranceSeconds: 10, clock: time.now });
    const headers = signWebhook(secret, { id: 'msg_c', timestampSeconds: 1_700_000_000, body });
    expect(verifier.verify(headers, body)).toEqual({ id: 'msg_c', timestampSeconds: 1_700_000_000 });
    time.advance(11_000);
    expect(code(() => verifier.verify(headers, body))).toBe('WEBHOOK_TIMESTAMP_STALE');
    expect(verifier.verify(headers, body, time.now() - 5_000).id).toBe('msg_c');
  });

  it('accepts the secret without its whsec_ prefix, as the reference libraries do', () => {
    const secret = generateWebhookSecret();
    const ts = nowSeconds();
    const signature = new Webhook(secret.slice(6)).sign('msg_np', new Date(ts * 1000), body);
    const verifier = createWebhookVerifier(secret.slice(6));
    expect(
      verifier.verify({ 'webhook-id': 'msg_np', 'webhook-timestamp': String(ts), 'webhook-signature': signature }, body)
        .id,
    ).toBe('msg_np');
  });
});
