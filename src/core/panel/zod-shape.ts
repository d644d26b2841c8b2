/**
 * The zod schema of a panel message shape (shape.ts): the extension validates what the panel
 * sends, and reads its stored history, with zod, from the same definitions the panel's own
 * validator reads. Only the extension's bundles import this file (the panel's tree-shakes it).
 */
// zod/mini, not ../zod-mini, whose English messages' set-up would stay in the page's bundle: none of these is shown.
import * as z from 'zod/mini';
import type { Shape, ShapeNode } from './shape';

export function toZod<T>(s: Shape<T>): z.ZodMiniType<T> {
  return build(s) as unknown as z.ZodMiniType<T>;
}

function build(n: ShapeNode): z.ZodMiniType {
  switch (n.kind) {
    case 'string':
      return z.string().check(z.maxLength(n.max));
    case 'number':
      return n.int ? z.int() : z.number();
    case 'boolean':
      return z.boolean();
    case 'literal':
      return z.literal(n.value);
    case 'enum':
      return z.enum(n.values as [string, ...string[]]);
    case 'array':
      return z.array(build(n.of)).check(z.maxLength(n.max));
    case 'tuple':
      return z.tuple(n.items.map(build) as [z.ZodMiniType, ...z.ZodMiniType[]]);
    case 'object':
      return z.object(Object.fromEntries(Object.entries(n.props).map(([k, v]) => [k, build(v)])));
    case 'record':
      return z
        .record(z.string(), build(n.of))
        .check(z.refine((r) => Object.keys(r).length <= n.max, `more than ${n.max} members`));
    case 'optional':
      return z.optional(build(n.of));
    case 'default':
      return z._default(build(n.of), n.value);
    case 'union':
      return z.discriminatedUnion(n.key, n.options.map(build) as unknown as [z.ZodMiniObject, ...z.ZodMiniObject[]]);
  }
}
