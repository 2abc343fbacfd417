import { PAY_METHOD_NAMES } from '../../adapters/ws/pay-methods.js';
import { BASKET } from './pay-server.js';

/** One HTTP request of a till to the cash desk's payment routes. */
export interface PaymentRequest {
  /** `POST /v1/payments/p-1/cancel`, for test names. */
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

/**
 * Every `/v1/payments` route, each with a body its schema accepts, about payment `paymentId`: each reaches the
 * payments (and so the database) once the till key and the body are checked.
 */
export function paymentRequests(paymentId: string, fullBarcode: string): PaymentRequest[] {
  const at = `/v1/payments/${paymentId}`;
  const requests: Array<Omit<PaymentRequest, 'name'>> = [
    { method: 'POST', path: '/v1/payments', body: { fullBarcode, basket: BASKET, paymentId } },
    { method: 'GET', path: '/v1/payments' },
    { method: 'GET', path: at },
    { method: 'GET', path: `${at}/events` },
    { method: 'POST', path: `${at}/checkout` },
    { method: 'POST', path: `${at}/basket`, body: { basket: BASKET } },
    { method: 'POST', path: `${at}/cancel` },
    { method: 'POST', path: `${at}/retry` },
    { method: 'POST', path: `${at}/rescan`, body: { fullBarcode } },
    { method: 'POST', path: `${at}/refund`, body: { refundId: 'r-1' } },
    { method: 'POST', path: `${at}/receipt`, body: { receipt: { number: 1 } } },
    { method: 'POST', path: `${at}/abandon` },
  ];
  return requests.map((r) => ({ ...r, name: `${r.method} ${r.path}` }));
}

/** One bridge call of a till. */
export interface PayCall {
  method: string;
  params: Record<string, unknown>;
}

/** Every bridge `pay.*` method with params its schema accepts, about payment `paymentId`. */
export function payCalls(paymentId: string, fullBarcode: string): PayCall[] {
  const params: Record<(typeof PAY_METHOD_NAMES)[number], Record<string, unknown>> = {
    'pay.start': { fullBarcode, basket: BASKET, paymentId },
    'pay.checkout': { paymentId },
    'pay.get': { paymentId },
    'pay.changeBasket': { paymentId, basket: BASKET },
    'pay.cancel': { paymentId },
    'pay.retry': { paymentId },
    'pay.rescan': { paymentId, fullBarcode },
    'pay.refund': { paymentId, refundId: 'r-1' },
    'pay.receipt': { paymentId, receipt: { number: 1 } },
    'pay.abandon': { paymentId },
    'pay.list': {},
    'pay.events': { paymentId, afterSeq: 1 },
  };
  return PAY_METHOD_NAMES.map((method) => ({ method, params: params[method] }));
}
