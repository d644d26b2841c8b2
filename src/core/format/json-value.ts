/**
 * JSON values from outside (server answers, response fields read back into requests): parsed,
 * walked and written out without recursion that a hostile nesting depth could overflow.
 */
import { BOUNDS } from '../bounds';

/** The value of JSON text, or undefined when it is not JSON (or too deep for the parser). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Follows `a.b[0].c` or `a.b.0.c` into a parsed JSON value, through own members only. */
export function jsonPath(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const part of path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((p) => p.length > 0)) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** A step of a path: a member name (an array index as its digits), or `*`: every element. */
export type PathStep = string | { readonly every: true };

/** A value a path reached, with the path that leads to it (`balances[2].free`). */
export interface Reached {
  readonly path: string;
  readonly value: unknown;
}

/**
 * Every value `steps` reach in `value`: a `*` step goes into each element of an array (or member of
 * an object). More than `max` values, even half-way, is `overflow`: a hostile answer cannot make the
 * walk large.
 */
export function reachAll(
  value: unknown,
  steps: readonly PathStep[],
  max: number,
): { reached: Reached[]; overflow: boolean } {
  let frontier: Reached[] = [{ path: '', value }];
  for (const step of steps) {
    const next: Reached[] = [];
    for (const at of frontier) {
      const v = at.value;
      if (v === null || typeof v !== 'object') continue;
      if (typeof step === 'string') {
        if (Object.hasOwn(v, step))
          next.push({ path: join(at.path, step, Array.isArray(v)), value: (v as Record<string, unknown>)[step] });
        continue;
      }
      const keys = Array.isArray(v) ? v.keys() : Object.keys(v);
      for (const k of keys) {
        if (next.length >= max) return { reached: next, overflow: true };
        next.push({ path: join(at.path, String(k), Array.isArray(v)), value: (v as Record<string, unknown>)[k] });
      }
    }
    frontier = next;
  }
  return { reached: frontier, overflow: false };
}

function join(path: string, step: string, index: boolean): string {
  if (index) return `${path}[${step}]`;
  return path === '' ? step : `${path}.${step}`;
}

/** Whether `value` nests deeper than `max` arrays and objects (checked without recursion). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(v))
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * Whether JSON text nests deeper than `max` arrays and objects, read in one pass without parsing it
 * (brackets inside strings are text): for text that should be refused before anything walks it.
 */
export function textNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // A string: to its closing quote, escapes skipped.
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92) i++;
    } else if (c === 91 || c === 123) {
      if (++depth > max) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

/** A JSON value as text: strings as they are, everything else as JSON (too deep: a note instead). */
export function jsonValueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (nestsDeeperThan(value, BOUNDS.prettyJsonDepth)) return '(a JSON value nested too deeply to write out)';
  return JSON.stringify(value) ?? String(value);
}

/** The parsed body when it can be written out again as JSON, else the text as received. */
export function jsonOrText(json: unknown, raw: string): unknown {
  return json === undefined || nestsDeeperThan(json, BOUNDS.prettyJsonDepth) ? raw : json;
}

/** A body for people: pretty-printed JSON, or the text as received when it is not JSON or nests too deeply. */
export function prettyBody(json: unknown, raw: string): string {
  if (json === undefined || nestsDeeperThan(json, BOUNDS.prettyJsonDepth)) return raw;
  return JSON.stringify(json, null, 2);
}
