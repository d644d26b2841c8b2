/**
 * The start of a JSON value pretty-printed exactly as `JSON.stringify(value, null, 2)` writes it,
 * made only as far as it is shown: the panel keeps BOUNDS.historyBodyChars of an answer, and an
 * answer of 8 MiB (BOUNDS.responseBytes) then costs what is kept of it, not its whole text twice
 * over. For values JSON.parse made (no undefined, no toJSON); walked without recursion.
 */

interface Frame {
  /** Members as [name, value]; a list's have no name. */
  readonly members: readonly (readonly [string | undefined, unknown])[];
  next: number;
  readonly indent: string;
  readonly close: string;
}

/** The first `maxChars` characters (or more: the last piece is whole) and whether that is all of it. */
export function prettyStart(value: unknown, maxChars: number): { readonly text: string; readonly whole: boolean } {
  const out: string[] = [];
  let length = 0;
  const put = (piece: string): void => {
    out.push(piece);
    length += piece.length;
  };
  const stack: Frame[] = [];
  const open = (v: unknown, indent: string): void => {
    if (v === null || typeof v !== 'object') return put(JSON.stringify(v) ?? 'null');
    const list = Array.isArray(v);
    const members: (readonly [string | undefined, unknown])[] = list
      ? v.map((x: unknown) => [undefined, x] as const)
      : Object.keys(v).map((k) => [k, (v as Record<string, unknown>)[k]] as const);
    if (members.length === 0) return put(list ? '[]' : '{}');
    put(list ? '[' : '{');
    stack.push({ members, next: 0, indent, close: list ? ']' : '}' });
  };
  open(value, '');
  while (stack.length > 0 && length <= maxChars) {
    const f = stack[stack.length - 1]!;
    if (f.next === f.members.length) {
      stack.pop();
      put(`\n${f.indent}${f.close}`);
      continue;
    }
    const [name, child] = f.members[f.next]!;
    put(`${f.next > 0 ? ',' : ''}\n${f.indent}  ${name === undefined ? '' : `${JSON.stringify(name)}: `}`);
    f.next++;
    open(child, `${f.indent}  `);
  }
  return { text: out.join(''), whole: stack.length === 0 };
}
