export { CallbackEvent, CallbackEventType } from './events.js';
export { CALLBACK_WEBHOOK_NAME, CallbackHeaders, callbackWebhook } from './webhook.js';
