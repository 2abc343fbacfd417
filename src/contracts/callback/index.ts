export { CallbackEvent, CallbackEventType } from './events.js';
