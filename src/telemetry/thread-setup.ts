/** What a module that sets up an SDK in a thread exports (`src/cli/telemetry.ts` does). */
export interface TelemetrySetupModule {
  startTelemetry(): Promise<{ shutdown(): Promise<void> } | undefined>;
}

let setupModule: string | undefined;

/**
 * Names the module (its URL) that a worker thread of the kit imports to set up the same OpenTelemetry SDK as this
 * thread (the SDK's registration is per thread): the CLI names its own once it has set one up.
 */
export function setThreadTelemetry(moduleUrl: string | undefined): void {
  setupModule = moduleUrl;
}

/** The module {@link setThreadTelemetry} named, if any. */
export function threadTelemetry(): string | undefined {
  return setupModule;
}

/** Sets up the SDK in this (worker) thread from the module `moduleUrl` names: its shutdown, or a no-op. */
export async function startThreadTelemetry(moduleUrl: string | undefined): Promise<() => Promise<void>> {
  if (moduleUrl === undefined) return async () => {};
  const started = await ((await import(moduleUrl)) as TelemetrySetupModule).startTelemetry();
  return async () => {
    await started?.shutdown();
  };
}
