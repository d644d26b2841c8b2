/**
 * The keys a JSON text writes twice in one object. JSON.parse keeps the last of them silently, so
 * a state file that names an origin twice (a ban, then an empty entry) would lift the ban: the
 * state treats such a key as damage. A linear scan without recursion, of a text JSON.parse took.
 */

/** An object or array being scanned: its keys so far (none for an array), and its key in its parent. */
interface Frame {
  readonly keys: Set<string> | undefined;
  readonly key: string | undefined;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The index just past the string starting at `start` (a quote). */
function stringEnd(text: string, start: number): number {
  for (let i = text.indexOf('"', start + 1); i !== -1; i = text.indexOf('"', i + 1)) {
    let slashes = 0;
    while (text.charCodeAt(i - 1 - slashes) === BACKSLASH) slashes++;
    // An even number of backslashes escape each other, not the quote.
    if (slashes % 2 === 0) return i + 1;
  }
  return text.length;
}

/** A key as JSON.parse reads it (escapes decoded: "\u0061" and "a" are one key). */
function keyOf(token: string): string {
  return token.includes('\\') ? (JSON.parse(token) as string) : token.slice(1, -1);
}

/**
 * The path of each key written twice in one object of `text` (valid JSON): the keys of the objects
 * around it, from the top (undefined for an array's element), then the key itself.
 */
export function repeatedKeys(text: string): (string | undefined)[][] {
  const repeats: (string | undefined)[][] = [];
  const stack: Frame[] = [];
  let pending: string | undefined;
  let expectKey = false;
  for (let i = 0; i < text.length;) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      const frame = stack[stack.length - 1];
      if (expectKey && frame?.keys) {
        const key = keyOf(text.slice(i, end));
        if (frame.keys.has(key)) repeats.push([...stack.slice(1).map((f) => f.key), key]);
        frame.keys.add(key);
        pending = key;
        expectKey = false;
      }
      i = end;
      continue;
    }
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      stack.push({ keys: c === 0x7b ? new Set() : undefined, key: pending });
      expectKey = c === 0x7b;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      expectKey = stack[stack.length - 1]?.keys !== undefined;
    }
    // A value that is no object or array ends at the next , } or ]: its key is no parent.
    if (c !== 0x3a /* : */ && c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) pending = undefined;
    i++;
  }
  return repeats;
}
