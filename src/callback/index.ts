export { createCallbackReceiver, type CallbackReceiver, type CallbackReceiverOptions } from '../callback-receiver/receiver.js';
export { CallbackDispatcher, type CallbackHandler, type DispatcherOptions } from './dispatcher.js';
export { CallbackStore, type PendingEvent } from './store.js';
export { CALLBACK_MIGRATIONS } from './migrations.js';
export { MessageDeliveryState } from './schemas.js';
