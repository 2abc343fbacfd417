// The WebSocket bridge for legacy tills (adapters/ws/README.md): JSON-RPC 2.0 over `ws`.
export { createBridge, type Bridge } from './bridge.js';
export {
  type BridgeOptions,
  DEFAULT_CLOSE_GRACE_MS,
  DEFAULT_MAX_BAD_FRAMES,
  DEFAULT_MAX_BATCH,
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_MAX_PAYLOAD_BYTES,
  DEFAULT_PING_INTERVAL_MS,
} from './options.js';
export {
  JsonRpcErrorCode,
  type JsonRpcErrorData,
  type JsonRpcErrorObject,
  type JsonRpcFailure,
  type JsonRpcId,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type JsonRpcSuccess,
} from './jsonrpc.js';
export { KIT_ERROR_RPC_CODES } from './errors.js';
export { BRIDGE_METHODS, type BridgeMethodName, type BridgeMethods } from './methods.js';
export { SUBPROTOCOL, UPGRADE_REFUSALS } from './upgrade.js';
export { CLOSE_FRAMES } from './connection-limits.js';
export { PAYMENT_RPC_CODES } from './errors.js';
export { PAY_METHOD_NAMES, type PayBridgeMethods } from './pay-methods.js';
export { SESSION_UPDATED } from './pay-notifications.js';
