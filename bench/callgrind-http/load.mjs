// `load.mjs <port> <amount>`: sends `amount` verify requests with 32 connections (autocannon), as bench:ci's HTTP
// load does; silent unless a request fails.
import autocannon from 'autocannon';
import { demoConfig } from '../../dist/src/demo.js';
import { drawBarcode } from '../../dist/src/entries/index.js';

const [port, amount] = process.argv.slice(2).map(Number);
const v = demoConfig.verifier;
const body = JSON.stringify({
  fullBarcode: drawBarcode({ ...v, cardNumber: '4000123412341234', cardSession: 'AB12CD34' }),
});
const headers = { 'content-type': 'application/json', authorization: `Bearer ${demoConfig.tills[0].key}` };
const result = await autocannon({
  url: `http://127.0.0.1:${port}/v1/barcode/verify`,
  method: 'POST',
  body,
  headers,
  connections: 32,
  amount,
  timeout: 120,
});
if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx, ${result.errors} errors`);
