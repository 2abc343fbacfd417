import type { BarcodeVerification } from '../../../src/contracts/barcode.js';
import { verificationSuite } from '../../shared/verification-suite.js';
import { RpcClient, RpcError } from '../../support/ws-client.js';
import { startBridgeServer, TILL } from './harness.js';

// The shared suite through a real socket: every call is a JSON-RPC frame; a
// JSON-RPC error rejects with an Error whose `code` is `error.data.code`.
verificationSuite(
  'bridge (ws)',
  async (config) => {
    const server = await startBridgeServer({}, config);
    const client = await RpcClient.connect(server.url, { key: TILL.key });
    return {
      sameRequester: true,
      barcodeVerify: (fullBarcode) => client.call<BarcodeVerification>('barcode.verify', { fullBarcode }),
      // One batch frame of barcode.verify calls; its answer is one array, in order.
      barcodeVerifyBatch: async (fullBarcodes) => {
        client.send(
          fullBarcodes.map((fullBarcode, i) => ({
            jsonrpc: '2.0',
            id: `batch-${i}`,
            method: 'barcode.verify',
            params: { fullBarcode },
          })),
        );
        const replies = (await client.next()) as Array<{
          id: string;
          result?: BarcodeVerification;
          error?: ConstructorParameters<typeof RpcError>[0];
        }>;
        return replies.map((reply, i) => {
          if (reply.id !== `batch-${i}`) throw new Error(`answer ${i} has id ${reply.id}`);
          if (reply.error !== undefined) throw new RpcError(reply.error);
          return reply.result!;
        });
      },
      getToken: async (requestData) => (await client.call<{ token: string }>('token.get', { requestData })).token,
      close: async () => {
        await client.close();
        await server.close();
      },
    };
  },
  { batch: true },
);
