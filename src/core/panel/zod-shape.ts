/**
 * The zod schema of a panel message shape (shape.ts): the extension validates what the panel
 * sends, and reads its stored history, with zod, from the same definitions the panel's own
 * validator reads. Only the extension's bundles import this file (the panel's tree-shakes it).
 */
import { z } from 'zod';
import type { Shape, ShapeNode } from './shape';

export function toZod<T>(s: Shape<T>): z.ZodType<T> {
  return build(s) as unknown as z.ZodType<T>;
}

function build(n: ShapeNode): z.ZodType {
  switch (n.kind) {
    case 'string':
      return z.string().max(n.max);
    case 'number':
      return n.int ? z.number().int() : z.number();
    case 'boolean':
      return z.boolean();
    case 'literal':
      return z.literal(n.value);
    case 'enum':
      return z.enum(n.values as [string, ...string[]]);
    case 'array':
      return z.array(build(n.of)).max(n.max);
    case 'tuple':
      return z.tuple(n.items.map(build) as [z.ZodType, ...z.ZodType[]]);
    case 'object':
      return z.object(Object.fromEntries(Object.entries(n.props).map(([k, v]) => [k, build(v)])));
    case 'record':
      return z
        .record(z.string(), build(n.of))
        .refine((r) => Object.keys(r).length <= n.max, `more than ${n.max} members`);
    case 'optional':
      return build(n.of).optional();
    case 'default':
      return build(n.of).default(n.value as never);
    case 'union':
      return z.discriminatedUnion(n.key, n.options.map(build) as unknown as [z.ZodObject, ...z.ZodObject[]]);
  }
}
