// Waiting: the one `Sleep` type the clients take, and the real-time one.
export { realSleep, type Sleep } from './sleep.js';
