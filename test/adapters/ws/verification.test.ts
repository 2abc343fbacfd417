import type { BarcodeVerification } from '../../../src/contracts/barcode.js';
import { verificationSuite } from '../../shared/verification-suite.js';
import { RpcClient } from '../../support/ws-client.js';
import { startBridgeServer, TILL } from './harness.js';

// The shared suite through a real socket: every call is a JSON-RPC frame; a
// JSON-RPC error rejects with an Error whose `code` is `error.data.code`.
verificationSuite('bridge (ws)', async (config) => {
  const server = await startBridgeServer({}, config);
  const client = await RpcClient.connect(server.url, { key: TILL.key });
  return {
    sameRequester: true,
    barcodeVerify: (fullBarcode) => client.call<BarcodeVerification>('barcode.verify', { fullBarcode }),
    getToken: async (requestData) => (await client.call<{ token: string }>('token.get', { requestData })).token,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
});
