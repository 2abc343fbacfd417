export { type ClientCall, clientSpan } from './client-span.js';
export { nameHttpSpan, type RouteNamer, traceHttpRequests } from './http-span.js';
export {
  callMeta,
  callParent,
  type CallMeta,
  rememberUpgradeTrace,
  traceCall,
  upgradeTrace,
  withoutMeta,
} from './rpc-span.js';
export {
  setThreadTelemetry,
  startThreadTelemetry,
  type TelemetrySetupModule,
  threadTelemetry,
} from './thread-setup.js';
export {
  contextOf,
  currentTraceparent,
  inSpan,
  kitTracer,
  TRACER_NAME,
  tracingActive,
  withTraceparent,
} from './tracing.js';
