/**
 * Parser of the `.tradereq` format (docs/format.md). One pass over the lines, no backtracking; it
 * never throws: whatever it cannot read becomes a diagnostic with a range. A file is read as
 * blocks split at `###` lines (parse/block.ts); an edit re-parses only the blocks it touches and
 * keeps the others, moved by the lines the edit added or removed (reparse).
 */
import { BOUNDS, formatSize } from '../bounds';
import { t } from '../l10n';
import { assemble, documentOf, handOver, tooManyRequests, type ParsedDocument } from './document';
import { range, type Diagnostic } from './model';
import { parseBlock } from './parse/block';
import type { Block, ParsedRequest } from './parse/block-state';

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
  const message = t(
    'This file has {0} characters, more than TradeReq reads ({1}): nothing in it is checked or sent. Split it into smaller files.',
    chars,
    formatSize(BOUNDS.fileChars),
  );
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

/** Models an edit has been applied to: their blocks below the edit have moved, so they are not reparsed again. */
const consumed = new WeakSet<ParsedDocument>();

/**
 * The document after `change`, from `prev` and the new text's lines [from, to) (joined with
 * `\n`; a trailing `\n` is allowed). Only the blocks the edit touched are parsed again; the blocks
 * below it keep their objects and are moved by the lines the edit added or removed. The lists of
 * the model are spliced, nothing is parsed or gathered block by block, so the cost hardly grows
 * with the file. `prev` is given up: its blocks and lists now belong to the new document (a second
 * edit of `prev` parses the whole text).
 */
export function reparse(
  prev: ParsedDocument,
  change: LineChange,
  lines: (from: number, to: number) => string,
): ParsedDocument {
  const delta = change.newToLine - change.oldToLine;
  const lineCount = prev.lineCount + delta;
  const blocks = prev.blocks;
  if (prev.truncated || blocks.length === 0 || consumed.has(prev)) return parse(lines(0, lineCount));
  const startOf = (k: number): number => blocks[k]!.startLine + blocks[k]!.pos.delta;
  let f = blockAt(blocks, startOf, change.fromLine);
  // An edit on a `###` line may join its block to the one above.
  if (f > 0 && change.fromLine === startOf(f)) f--;
  const l = blockAt(blocks, startOf, change.oldToLine);
  const from = startOf(f);
  const oldTo = l + 1 < blocks.length ? startOf(l + 1) : prev.lineCount;
  const to = l + 1 < blocks.length ? oldTo + delta : lineCount;
  // The requests and `###` lines of the touched blocks, found by position (old lines, before moving).
  const rf = firstFrom(prev.requests, (r) => r.range.startLine, from);
  const rl = firstFrom(prev.requests, (r) => r.range.startLine, oldTo);
  const sf = firstFrom(prev.separatorLines, (n) => n, from);
  const sl = firstFrom(prev.separatorLines, (n) => n, oldTo);
  const region = parseRegion(sourceOf(lines(from, to)), 0, to - from, from, f === 0, rf);
  const made = region.blocks.flatMap((b) => (b.request ? [b.request] : []));
  const total = prev.requests.length - (rl - rf) + made.length;
  // At the limit a `###` below the last request read is reported: the whole file decides.
  if (region.extra.length > 0 || total >= BOUNDS.requestsPerFile) return parse(lines(0, lineCount));
  consumed.add(prev);
  const requests = prev.requests as ParsedRequest[];
  const separatorLines = prev.separatorLines as number[];
  const next = blocks as Block[];
  handOver(prev);
  for (let k = l + 1; k < next.length; k++) next[k]!.pos.delta += delta;
  replaceRange(requests, rf, rl - rf, made);
  // Indexes move only when the number of requests changed.
  const moved = made.length !== rl - rf ? requests.length : rf + made.length;
  for (let k = rf; k < moved; k++) requests[k]!.index = k;
  if (delta !== 0) for (let k = sl; k < separatorLines.length; k++) separatorLines[k]! += delta;
  const separators = region.blocks.flatMap((b) => (b.separator ? [b.separator.startLine] : []));
  replaceRange(separatorLines, sf, sl - sf, separators);
  replaceRange(next, f, l - f + 1, region.blocks);
  return documentOf(next, requests, separatorLines, lineCount, []);
}

/** `list.splice(start, count, ...items)` without spreading `items` onto the stack (a paste may make a million blocks). */
function replaceRange<T>(list: T[], start: number, count: number, items: readonly T[]): void {
  const tail = list.splice(start + count);
  list.length = start;
  for (const item of items) list.push(item);
  for (const item of tail) list.push(item);
}

/** The index of the first item whose position is at least `line` (items are in order). */
function firstFrom<T>(items: readonly T[], position: (item: T) => number, line: number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (position(items[mid]!) < line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
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
