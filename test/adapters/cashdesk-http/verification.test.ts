import { verificationSuite } from '../../shared/verification-suite.js';
import { request, startServer } from './client.js';

/** An error carrying the envelope's status as `code`, as the suite expects of every target. */
class EnvelopeError extends Error {
  constructor(
    readonly code: string,
    readonly errors: readonly string[],
  ) {
    super(`${code}: ${errors.join('; ')}`);
  }
}

verificationSuite(
  'http',
  async (config) => {
    const server = await startServer({ config });
    return {
      sameRequester: true,
      async barcodeVerify(fullBarcode) {
        const reply = await request(server.url, '/v1/barcode/verify', { body: { fullBarcode } });
        if (reply.status !== 200) throw new EnvelopeError(reply.body.status, reply.body.errors);
        return reply.body;
      },
      async barcodeVerifyBatch(fullBarcodes) {
        const reply = await request(server.url, '/v1/barcode/verify-batch', { body: { fullBarcodes } });
        if (reply.status !== 200) throw new EnvelopeError(reply.body.status, reply.body.errors);
        return reply.body.results;
      },
      async getToken(requestData) {
        const reply = await request(server.url, '/v1/token', { body: { requestData } });
        if (reply.status !== 200) throw new EnvelopeError(reply.body.status, reply.body.errors);
        return reply.body.token;
      },
      close: () => server.close(),
    };
  },
  { batch: true },
);
