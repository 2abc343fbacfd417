import { createHmac } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import { hmac } from '../src/entries/index.js';
import type { BenchGroup } from './harness.js';

/**
 * The reference figures ("one HMAC-SHA256: wasm about 3.3 M/s,
 * node:crypto about 0.5 M/s, otpauth validate about 0.29 M/s") measured on
 * this machine, so its speed relative to that one can be read off.
 */
export function calibrationGroup(): BenchGroup {
  const key = Buffer.alloc(32, 7);
  const message = Buffer.from('card:4000123412341234');
  const secret = OTPAuth.Secret.fromHex(key.toString('hex'));
  const at = Date.UTC(2026, 10, 22, 12, 0, 15);
  const token = OTPAuth.TOTP.generate({ secret, algorithm: 'SHA256', digits: 8, period: 30, timestamp: at });
  return {
    title: 'Calibration: one HMAC-SHA256 (32-byte key, 21-byte message), and otpauth validate',
    cases: [
      ['kit hmac() (wasm, key set up per call: 4 compressions)', () => hmac('HMACSHA256', key, message)],
      ['node:crypto createHmac', () => createHmac('sha256', key).update(message).digest()],
      [
        'otpauth TOTP.validate',
        () =>
          OTPAuth.TOTP.validate({
            token,
            secret,
            algorithm: 'SHA256',
            digits: 8,
            period: 30,
            timestamp: at,
            window: 1,
          }),
      ],
    ],
    ratios: [],
  };
}
