import type { z } from 'zod';

type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
};

/** The object a field's schema holds under its wrappers (optional, default, refinements, pipes), or undefined. */
function unwrap(schema: z.ZodType): z.ZodType {
  let node = schema;
  for (;;) {
    const def = (node as unknown as { def: Def }).def;
    if (def.innerType) node = def.innerType;
    else if (def.type === 'pipe' && def.in) node = def.in;
    else return node;
  }
}

/**
 * Every field path of a configuration schema, as its documentation names it: `server.port`, `tills[].key`. Objects
 * are walked into; anything else (a list of values, a record, a union such as `lockout`) is one field.
 */
export function schemaKeys(schema: z.ZodType, prefix = ''): string[] {
  const node = unwrap(schema);
  const def = (node as unknown as { def: Def }).def;
  if (def.type === 'object' && def.shape) {
    return Object.entries(def.shape).flatMap(([key, field]) => schemaKeys(field, prefix ? `${prefix}.${key}` : key));
  }
  if (def.type === 'array' && def.element) {
    const element = unwrap(def.element);
    if ((element as unknown as { def: Def }).def.type === 'object') return schemaKeys(element, `${prefix}[]`);
  }
  return [prefix];
}
