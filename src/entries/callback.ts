export {
  createCallbackReceiver,
  type CallbackReceiver,
  type CallbackReceiverOptions,
} from '../callback-receiver/receiver.js';
export type { CallbackHandler } from '../callback/dispatcher.js';
export type { PendingEvent } from '../callback/store.js';
export type { CallbackEvent, CallbackEventType } from '../contracts/callback/events.js';
