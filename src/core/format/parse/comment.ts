/** `# text`, `// text`: comments; `# @word args`: directives (docs/format.md, Directives). */
import type { Directive } from '../model';
import { append, type Block } from './block-state';
import { CH_AT, CH_HASH, CH_SLASH, contentEnd, firstVisible, isSpace, sliceTrimEnd } from './source';

export function isCommentStart(line: string, first: number, c: number): boolean {
  return c === CH_HASH || (c === CH_SLASH && line.charCodeAt(first + 1) === CH_SLASH);
}

export function commentOrDirective(b: Block, line: string, i: number, first: number, c: number): void {
  const t = firstVisible(line, first + (c === CH_HASH ? 1 : 2));
  const afterAt = line.charCodeAt(t + 1) | 32;
  if (line.charCodeAt(t) === CH_AT && afterAt >= 97 && afterAt <= 122)
    b.directives.push(readDirective(b, line, i, t, first));
  else b.comments = append(b.comments, b.pos.range(i, first, i, line.length));
}

function readDirective(b: Block, line: string, lineNo: number, at: number, first: number): Directive {
  let e = at + 1;
  while (e < line.length && !isSpace(line.charCodeAt(e))) e++;
  const name = b.pos.token(line.slice(at + 1, e), lineNo, at + 1);
  e = firstVisible(line, e);
  const argText = sliceTrimEnd(line, e);
  return {
    name,
    args: argText.length > 0 ? b.pos.token(argText, lineNo, e) : undefined,
    range: b.pos.range(lineNo, first, lineNo, contentEnd(line)),
  };
}
