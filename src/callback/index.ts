export {
  createCallbackReceiver,
  type CallbackReceiver,
  type CallbackReceiverOptions,
} from '../callback-receiver/receiver.js';
export type { CallbackHandler } from './dispatcher.js';
export type { PendingEvent } from './store.js';
export type { CallbackEvent, CallbackEventType } from '../contracts/callback/events.js';
