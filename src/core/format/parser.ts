/**
 * Parser of the `.tradereq` format (format.md). One pass over the lines, no backtracking; it
 * never throws: whatever it cannot read becomes a diagnostic with a range. A file is read as
 * blocks split at `###` lines (parse/block.ts); an edit re-parses only the blocks it touches and
 * keeps the others, moved by the lines the edit added or removed (reparse).
 */
import { BOUNDS, formatSize } from '../bounds';
import { assemble, tooManyRequests, type ParsedDocument } from './document';
import { range, type Diagnostic } from './model';
import { parseBlock, type Block } from './parse/block';

import { firstVisible, isSeparatorLine, lineAt, sourceOf, type SourceText } from './parse/source';

export { defaultPlacement, percentDecode } from './parse/request-line';
export type { ParsedDocument } from './document';

export function parse(text: string): ParsedDocument {
  if (text.length > BOUNDS.fileChars) return oversizedDocument(text.length);
  const source = sourceOf(text);
  const { blocks, extra } = parseRegion(source, 0, source.starts.length, 0, true, 0);
  return assemble(blocks, source.starts.length, extra);
}

/** A file over BOUNDS.fileChars is not read at all: one diagnostic says so. */
function oversizedDocument(chars: number): ParsedDocument {
  const message = `This file has ${chars} characters, more than TradeReq reads (${formatSize(BOUNDS.fileChars)}): nothing in it is checked or sent. Split it into smaller files.`;
  const diagnostic: Diagnostic = { range: range(0, 0, 0, 0), severity: 'error', message, rule: 'file-too-large' };
  return assemble([], 1, [diagnostic]);
}

/**
 * The blocks of lines [from, to) of `source`: the first from `from` to the first `###` (the
 * file's first block when `first`), then one per `###` line. Stops with a diagnostic once the
 * file holds BOUNDS.requestsPerFile requests (`requestsBefore` counts those before the region).
 * `delta` is the region's first line in the document.
 */
function parseRegion(
  source: SourceText,
  from: number,
  to: number,
  delta: number,
  first: boolean,
  requestsBefore: number,
): { blocks: Block[]; extra: Diagnostic[] } {
  const blocks: Block[] = [];
  let requests = requestsBefore;
  let start = from;
  for (let i = from + (first ? 0 : 1); i <= to; i++) {
    if (i < to && !isSeparatorLine(source, i)) continue;
    // Each block its own anchor: an edit moves the blocks below it, not those above.
    const b = parseBlock(source, start, i, first && blocks.length === 0, delta);
    blocks.push(b);
    if (b.request) requests++;
    if (i < to && requests >= BOUNDS.requestsPerFile) {
      const line = lineAt(source, i);
      return {
        blocks,
        extra: [tooManyRequests(range(i + delta, firstVisible(line), i + delta, line.length))],
      };
    }
    start = i;
  }
  return { blocks, extra: [] };
}

/** An edit, in lines: [fromLine, oldToLine] of the old text became [fromLine, newToLine] of the new. */
export interface LineChange {
  readonly fromLine: number;
  readonly oldToLine: number;
  readonly newToLine: number;
}

/**
 * The document after `change`, from `prev` and the new text's lines [from, to) (joined with
 * `\n`). Only the blocks the edit touched are parsed again; the blocks below it keep their
 * objects and are moved by the lines the edit added or removed.
 */
export function reparse(
  prev: ParsedDocument,
  change: LineChange,
  lines: (from: number, to: number) => string,
): ParsedDocument {
  const delta = change.newToLine - change.oldToLine;
  const lineCount = prev.lineCount + delta;
  const blocks = prev.blocks;
  if (prev.truncated || blocks.length === 0) return parse(lines(0, lineCount));
  const startOf = (k: number): number => blocks[k]!.startLine + blocks[k]!.pos.delta;
  let f = blockAt(blocks, startOf, change.fromLine);
  // An edit on a `###` line may join its block to the one above.
  if (f > 0 && change.fromLine === startOf(f)) f--;
  const l = blockAt(blocks, startOf, change.oldToLine);
  const from = startOf(f);
  const to = l + 1 < blocks.length ? startOf(l + 1) + delta : lineCount;
  const requestsBefore = blocks.slice(0, f).filter((b) => b.request).length;
  const region = parseRegion(sourceOf(lines(from, to)), 0, to - from, from, f === 0, requestsBefore);
  const after = blocks.slice(l + 1);
  for (const b of after) b.pos.delta += delta;
  const next = [...blocks.slice(0, f), ...region.blocks, ...after];
  const total = next.filter((b) => b.request).length;
  if (region.extra.length > 0 || total > BOUNDS.requestsPerFile) return parse(lines(0, lineCount));
  return assemble(next, lineCount);
}

/** The index of the block that holds absolute line `line` (blocks are in order). */
function blockAt(blocks: readonly Block[], startOf: (k: number) => number, line: number): number {
  let lo = 0;
  let hi = blocks.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (startOf(mid) <= line) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
