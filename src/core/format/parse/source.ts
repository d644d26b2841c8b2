/** The text a block is parsed from, and the character tests every construct shares. */

/** The text and where each of its lines starts; tokens slice it lazily. */
export interface SourceText {
  readonly text: string;
  readonly starts: readonly number[];
}

export function sourceOf(text: string): SourceText {
  const starts = [0];
  for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', nl + 1)) starts.push(nl + 1);
  return { text, starts };
}

/** Line `n` of the source without its `\r\n` / `\n` ending. */
export function lineAt(source: SourceText, n: number): string {
  const start = source.starts[n]!;
  const next = source.starts[n + 1];
  let end = next === undefined ? source.text.length : next - 1;
  if (end > start && source.text.charCodeAt(end - 1) === 13) end--;
  return source.text.slice(start, end);
}

const CH_TAB = 9;
const CH_SPACE = 32;
export const CH_QUOTE = 34;
export const CH_HASH = 35;
export const CH_SLASH = 47;
export const CH_COLON = 58;
export const CH_AT = 64;
export const CH_LBRACKET = 91;
export const CH_BACKSLASH = 92;
export const CH_RBRACKET = 93;
export const CH_LBRACE = 123;
export const CH_RBRACE = 125;

export function isSpace(c: number): boolean {
  return c === CH_SPACE || c === CH_TAB;
}

/** The first character that is not white space (the line's length when there is none). */
export function firstVisible(line: string, from = 0): number {
  let k = from;
  while (k < line.length && isSpace(line.charCodeAt(k))) k++;
  return k;
}

/** The end of `line` without trailing white space, not before `from`. */
export function contentEnd(line: string, from = 0): number {
  let e = line.length;
  while (e > from && isSpace(line.charCodeAt(e - 1))) e--;
  return e;
}

export function sliceTrimEnd(line: string, from: number): string {
  return line.slice(from, contentEnd(line, from));
}

/** Whether line `n` of the source is a separator, read in place (the split pass allocates nothing). */
export function isSeparatorLine(source: SourceText, n: number): boolean {
  const text = source.text;
  const end = source.starts[n + 1] ?? text.length;
  let k = source.starts[n]!;
  while (k < end && isSpace(text.charCodeAt(k))) k++;
  return (
    k + 2 < end &&
    text.charCodeAt(k) === CH_HASH &&
    text.charCodeAt(k + 1) === CH_HASH &&
    text.charCodeAt(k + 2) === CH_HASH
  );
}
