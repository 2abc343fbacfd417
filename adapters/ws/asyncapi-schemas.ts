import { OpenAPIHono, type z } from '@hono/zod-openapi';

// The JSON Schemas the AsyncAPI document carries, made by the OpenAPI documents' own generator.

/**
 * The JSON Schemas of `schemas` and of every named schema they use, by the
 * generator of the OpenAPI documents (its `#/components/schemas/` refs are
 * AsyncAPI's too).
 */
export function jsonSchemas(schemas: Record<string, z.ZodType>): Record<string, unknown> {
  const app = new OpenAPIHono();
  for (const [name, schema] of Object.entries(schemas)) app.openAPIRegistry.register(name, schema);
  const document = app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'schemas', version: '0' } });
  return asyncApiDiscriminators(document.components?.schemas ?? {}) as Record<string, unknown>;
}

/**
 * `value` with each OpenAPI discriminator (`{ propertyName, mapping }`, what the generator writes for a zod
 * discriminated union) in AsyncAPI's form: the property's name alone. The `oneOf` beside it already lists the
 * members; the mapping only repeats which `resultCode` each has.
 */
function asyncApiDiscriminators(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asyncApiDiscriminators);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const propertyName = key === 'discriminator' ? (inner as { propertyName?: unknown }).propertyName : undefined;
    out[key] = typeof propertyName === 'string' ? propertyName : asyncApiDiscriminators(inner);
  }
  return out;
}
