/**
 * A small language for the shapes of the panel's messages, and a validator that needs no library.
 * The panel's page checks every message with `check` (so its bundle holds no zod, and stays
 * small); the extension checks what the page sends with zod schemas derived from the same shapes
 * (zod-shape.ts). Everything is bounded: strings, arrays and records carry a maximum, and unknown
 * members of an object are dropped, as zod does.
 */
import { err, ok, type Result } from '../result';

declare const OUT: unique symbol;

type Scalar = string | number | boolean;

/** What a shape is made of, as plain data (no functions), so both validators can read it. */
export type ShapeNode =
  | { readonly kind: 'string'; readonly max: number }
  | { readonly kind: 'number'; readonly int: boolean }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'literal'; readonly value: Scalar }
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  | { readonly kind: 'array'; readonly of: ShapeNode; readonly max: number }
  | { readonly kind: 'tuple'; readonly items: readonly ShapeNode[] }
  | { readonly kind: 'object'; readonly props: Readonly<Record<string, ShapeNode>> }
  | { readonly kind: 'record'; readonly of: ShapeNode; readonly max: number }
  | { readonly kind: 'optional'; readonly of: ShapeNode }
  | { readonly kind: 'default'; readonly of: ShapeNode; readonly value: unknown }
  | { readonly kind: 'union'; readonly key: string; readonly options: readonly ShapeNode[] };

/** A shape whose values have the type T (T lives in the type only). */
export type Shape<T> = ShapeNode & { readonly [OUT]?: T };
type OptionalShape<T> = Extract<ShapeNode, { kind: 'optional' }> & { readonly [OUT]?: T | undefined };

/** The type of the values a shape accepts, as they come out of `check` (defaults filled in). */
export type Infer<S> = S extends { readonly [OUT]?: infer T } ? T : never;

type Flat<T> = { [K in keyof T]: T[K] } & {};
type OptionalKeys<P> = { [K in keyof P]: P[K] extends { readonly kind: 'optional' } ? K : never }[keyof P];
type ObjectOf<P> = Flat<
  { -readonly [K in Exclude<keyof P, OptionalKeys<P>>]: Infer<P[K]> } & {
    -readonly [K in OptionalKeys<P>]?: Infer<P[K]>;
  }
>;

export const shape = {
  string: (max: number): Shape<string> => ({ kind: 'string', max }),
  number: (): Shape<number> => ({ kind: 'number', int: false }),
  int: (): Shape<number> => ({ kind: 'number', int: true }),
  boolean: (): Shape<boolean> => ({ kind: 'boolean' }),
  literal: <const V extends Scalar>(value: V): Shape<V> => ({ kind: 'literal', value }),
  enum: <const V extends readonly string[]>(values: V): Shape<V[number]> => ({ kind: 'enum', values }),
  array: <T>(of: Shape<T>, max: number): Shape<T[]> => ({ kind: 'array', of, max }),
  tuple: <A, B>(a: Shape<A>, b: Shape<B>): Shape<[A, B]> => ({ kind: 'tuple', items: [a, b] }),
  object: <P extends Record<string, ShapeNode>>(props: P): Shape<ObjectOf<P>> => ({ kind: 'object', props }),
  record: <T>(of: Shape<T>, max: number): Shape<Record<string, T>> => ({ kind: 'record', of, max }),
  optional: <T>(of: Shape<T>): OptionalShape<T> => ({ kind: 'optional', of }),
  withDefault: <T>(of: Shape<T>, value: T): Shape<T> => ({ kind: 'default', of, value }),
  /** Objects told apart by the literal at `key` (a discriminated union). */
  union: <S extends Shape<object>>(key: string, options: readonly S[]): Shape<Infer<S>> => ({
    kind: 'union',
    key,
    options,
  }),
};

/** `value` if it fits `s` (a copy: unknown members dropped, defaults filled in), else where it does not. */
export function check<T>(s: Shape<T>, value: unknown): Result<T, string> {
  const r = run(s, value, '');
  return r === FAIL ? err(failedAt) : ok(r as T);
}

// One failure marker and its path, so a good value allocates nothing but its copy.
const FAIL = Symbol('fail');
let failedAt = '';

function fail(path: string, why: string): typeof FAIL {
  failedAt = `${path || '(value)'}: ${why}`;
  return FAIL;
}

function run(n: ShapeNode, v: unknown, path: string): unknown {
  switch (n.kind) {
    case 'string':
      return typeof v !== 'string' ? fail(path, 'not a string') : v.length > n.max ? fail(path, 'too long') : v;
    case 'number':
      if (typeof v !== 'number' || !Number.isFinite(v)) return fail(path, 'not a finite number');
      return n.int && !Number.isSafeInteger(v) ? fail(path, 'not an integer') : v;
    case 'boolean':
      return typeof v === 'boolean' ? v : fail(path, 'not a boolean');
    case 'literal':
      return v === n.value ? v : fail(path, `not ${JSON.stringify(n.value)}`);
    case 'enum':
      return typeof v === 'string' && n.values.includes(v) ? v : fail(path, 'not one of the values');
    case 'optional':
      return v === undefined ? undefined : run(n.of, v, path);
    case 'default':
      return v === undefined ? n.value : run(n.of, v, path);
    case 'array':
      return runArray(n.of, n.max, v, path);
    case 'tuple':
      if (!Array.isArray(v) || v.length !== n.items.length) return fail(path, `not a list of ${n.items.length}`);
      return runArray(undefined, n.items.length, v, path, n.items);
    case 'object':
      return isObject(v) ? runObject(n.props, v, path) : fail(path, 'not an object');
    case 'record':
      return runRecord(n.of, n.max, v, path);
    case 'union':
      return runUnion(n.key, n.options, v, path);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function runArray(
  of: ShapeNode | undefined,
  max: number,
  v: unknown,
  path: string,
  items?: readonly ShapeNode[],
): unknown {
  if (!Array.isArray(v)) return fail(path, 'not a list');
  if (v.length > max) return fail(path, `more than ${max} items`);
  const out: unknown[] = new Array<unknown>(v.length);
  for (let i = 0; i < v.length; i++) {
    const r = run((items?.[i] ?? of)!, v[i], `${path}[${i}]`);
    if (r === FAIL) return FAIL;
    out[i] = r;
  }
  return out;
}

function runObject(props: Readonly<Record<string, ShapeNode>>, v: Record<string, unknown>, path: string): unknown {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(props)) {
    const r = run(props[key]!, v[key], path ? `${path}.${key}` : key);
    if (r === FAIL) return FAIL;
    if (r !== undefined) out[key] = r;
  }
  return out;
}

function runRecord(of: ShapeNode, max: number, v: unknown, path: string): unknown {
  if (!isObject(v)) return fail(path, 'not an object');
  const keys = Object.keys(v);
  if (keys.length > max) return fail(path, `more than ${max} members`);
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const r = run(of, v[key], `${path}.${key}`);
    if (r === FAIL) return FAIL;
    out[key] = r;
  }
  return out;
}

function runUnion(key: string, options: readonly ShapeNode[], v: unknown, path: string): unknown {
  if (!isObject(v)) return fail(path, 'not an object');
  const tag = v[key];
  const option = options.find((o) => o.kind === 'object' && run(o.props[key]!, tag, '') !== FAIL);
  return option === undefined ? fail(path ? `${path}.${key}` : key, 'unknown kind') : run(option, v, path);
}
