import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, signWebhook } from '../../../src/entries/webhooks.js';
import { webhookKey } from '../../../src/webhooks/secret.js';

describe('signWebhook', () => {
  it('signs id.timestamp.body with HMAC-SHA256 of the decoded key, as v1,<base64>', () => {
    const secret = generateWebhookSecret();
    const headers = signWebhook(secret, { id: 'msg_1', timestampSeconds: 1_700_000_000, body: '{"a":1}' });
    const expected = createHmac('sha256', webhookKey(secret)).update('msg_1.1700000000.{"a":1}').digest('base64');
    expect(headers).toEqual({
      'webhook-id': 'msg_1',
      'webhook-timestamp': '1700000000',
      'webhook-signature': `v1,${expected}`,
    });
  });

  it('gives the same signature for the body as a string or its UTF-8 bytes, and the same as the package', () => {
    const secret = generateWebhookSecret();
    const body = '{"text":"ёжик 🦔"}';
    const fromString = signWebhook(secret, { id: 'msg_u', timestampSeconds: 1_700_000_000, body });
    const fromBytes = signWebhook(secret, {
      id: 'msg_u',
      timestampSeconds: 1_700_000_000,
      body: Buffer.from(body, 'utf8'),
    });
    expect(fromBytes).toEqual(fromString);
    expect(fromString['webhook-signature']).toBe(new Webhook(secret).sign('msg_u', new Date(1_700_000_000_000), body));
  });

  it('takes raw key bytes as well as a whsec_ secret', () => {
    const secret = generateWebhookSecret();
    const message = { id: 'msg_k', timestampSeconds: 1_700_000_000, body: 'x' };
    expect(signWebhook(webhookKey(secret), message)).toEqual(signWebhook(secret, message));
  });
});

describe('generateWebhookSecret', () => {
  it('makes distinct whsec_ secrets of 32 random bytes that the package accepts', () => {
    const a = generateWebhookSecret();
    const b = generateWebhookSecret();
    expect(a).not.toBe(b);
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(webhookKey(a)).toHaveLength(32);
    expect(() => new Webhook(a)).not.toThrow();
  });
});
