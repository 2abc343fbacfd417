/** The kit's licence, as every OpenAPI document states it. */
export const OPENAPI_LICENSE = { name: 'MIT', identifier: 'MIT' } as const;

/** `servers` of a document: where `npm start` (the demo system) runs that API on this machine. */
export function demoServers(port: number, what: string): Array<{ url: string; description: string }> {
  return [
    {
      url: `http://127.0.0.1:${port}`,
      description: `${what} as \`npm start\` runs it; point clients at the real service's URL instead.`,
    },
  ];
}
