/**
 * A `[json]` body as an importer reads it: `{{...}}` may stand where JSON expects a value, so the
 * text is read with placeholders in their place and written back with them restored.
 */
import { BOUNDS } from '../bounds';
import { nestsDeeperThan } from '../format/json-value';

/** Replaces `{{...}}` by placeholders so that JSON.parse can read the body, and back. */
function withPlaceholders(json: string): { text: string; restore: (s: string) => string } {
  if (json.indexOf('{{') < 0) return { text: json, restore: (s) => s };
  const found: string[] = [];
  let out = '';
  let inString = false;
  let escaped = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i]!;
    if (c === '{' && json[i + 1] === '{' && json.indexOf('}}', i + 2) > 0) {
      const end = json.indexOf('}}', i + 2) + 2;
      found.push(json.slice(i, end));
      out += inString ? `__trq${found.length - 1}__` : `"__trq${found.length - 1}__"`;
      i = end - 1;
      continue;
    }
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    out += c;
  }
  const restore = (s: string): string =>
    s.replace(/"__trq(\d+)__"|__trq(\d+)__/g, (_m, a?: string, b?: string) => found[Number(a ?? b)] ?? '');
  return { text: out, restore };
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The body as a JSON object (`{{...}}` as placeholders that `restore` puts back), or undefined when it is not one. */
export function readObject(json: string): { value: JsonObject; restore: (s: string) => string } | undefined {
  const { text, restore } = withPlaceholders(json);
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? { value, restore } : undefined;
  } catch {
    return undefined;
  }
}

/** The top-level member names of the body; none when it is not a JSON object. */
export function jsonMembers(json: string): string[] {
  const read = readObject(json);
  return read ? Object.keys(read.value) : [];
}

/** The member names `drop` names at any depth, walked without recursion (a body may nest deeply). */
function droppedMembers(root: JsonObject, drop: (name: string, top: boolean) => boolean): string[] {
  const names: string[] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null) continue;
    if (!Array.isArray(v)) for (const k of Object.keys(v)) if (drop(k, v === root)) names.push(k);
    for (const child of Object.values(v)) stack.push(child);
  }
  return names;
}

export interface Pruned {
  /** The body without the members dropped, on one line; undefined when it could not be written again. */
  readonly json: string | undefined;
  /** The names of the members dropped, in the order met. */
  readonly dropped: string[];
  /** The body could be read as a JSON object. */
  readonly read: boolean;
}

/**
 * The body without the members `drop` names (`top`: a member of the outer object); written again
 * only when one is dropped. `{json: undefined, read: true}` when the body nests too deeply to write.
 */
export function pruneMembers(json: string, drop: (name: string, top: boolean) => boolean): Pruned {
  const read = readObject(json);
  if (!read) return { json, dropped: [], read: false };
  const root = read.value;
  const dropped = droppedMembers(root, drop);
  if (dropped.length === 0) return { json, dropped, read: true };
  // JSON.stringify recurses: a body nested past the one depth TradeReq reads JSON to is not written again.
  if (nestsDeeperThan(root, BOUNDS.prettyJsonDepth)) return { json: undefined, dropped, read: true };
  const text = JSON.stringify(root, function (this: unknown, key: string, value: unknown) {
    return !Array.isArray(this) && key !== '' && drop(key, this === root) ? undefined : value;
  });
  return { json: read.restore(text), dropped, read: true };
}
