/** `### title`: starts a request; the rest of the line is its title. */
import type { Block } from './block-state';
import { CH_HASH, contentEnd, firstVisible, sliceTrimEnd } from './source';

export function separator(b: Block, line: string, i: number, first: number): void {
  b.separator = b.pos.range(i, first, i, line.length);
  b.lastContentEnd = contentEnd(line);
  let t = first + 3;
  while (t < line.length && line.charCodeAt(t) === CH_HASH) t++;
  t = firstVisible(line, t);
  const title = sliceTrimEnd(line, t);
  if (title.length > 0) b.title = b.pos.token(title, i, t);
}
