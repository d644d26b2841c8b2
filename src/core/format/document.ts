/**
 * A parsed file as blocks, and the document model assembled from them: requests in order with
 * their indexes, the file's variables and directives (from its first block), names checked to be
 * unique, every diagnostic in order. Assembling is linear in the number of blocks, so an edit that
 * re-parses one block costs little more than that block.
 */
import { BOUNDS } from '../bounds';
import { byPosition, type Diagnostic, type Range, type RequestBlock, type Token, type TradeReqDocument } from './model';
import type { Block, ParsedRequest } from './parse/block';

export interface ParsedDocument extends TradeReqDocument {
  readonly blocks: readonly Block[];
  /** Set when the file holds more requests than TradeReq reads: the rest was not parsed. */
  readonly truncated: boolean;
}

export function assemble(
  blocks: readonly Block[],
  lineCount: number,
  extra: readonly Diagnostic[] = [],
): ParsedDocument {
  const requests: ParsedRequest[] = [];
  const comments: Range[] = [];
  const separatorLines: number[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const b of blocks) {
    if (b.request) {
      b.request.index = requests.length;
      requests.push(b.request);
    }
    if (b.separator) separatorLines.push(b.separator.startLine);
    for (const c of b.comments) comments.push(c);
    for (const d of b.diagnostics) diagnostics.push(d);
  }
  const late = [...duplicateNames(requests), ...extra];
  // Blocks are in order and each block's diagnostics sorted: only added ones need a sort.
  if (late.length > 0) {
    for (const d of late) diagnostics.push(d);
    diagnostics.sort(byPosition);
  }
  const first = blocks[0];
  return {
    lineCount,
    variables: first?.variables ?? [],
    fileDirectives: first?.fileDirectives ?? [],
    requests,
    comments,
    variableRefs: first?.variableRefs ?? [],
    diagnostics,
    separatorLines,
    blocks,
    truncated: extra.some((d) => d.rule === 'too-many-requests'),
  };
}

/** A `# @name` used before: a warning on the later one (names are for chaining and --request). */
function duplicateNames(requests: readonly RequestBlock[]): Diagnostic[] {
  const names = new Map<string, Token>();
  const out: Diagnostic[] = [];
  for (const r of requests) {
    if (!r.name) continue;
    const previous = names.get(r.name.text);
    if (!previous) {
      names.set(r.name.text, r.name);
      continue;
    }
    const message = `Another request is already named "${r.name.text}" (line ${previous.range.startLine + 1}): names must be unique for chaining and for --request.`;
    out.push({ range: r.name.range, severity: 'warning', message, rule: 'duplicate-name' });
  }
  return out;
}

/** The diagnostic for a file of more requests than TradeReq reads, at the separator where it stops. */
export function tooManyRequests(at: Range): Diagnostic {
  const n = BOUNDS.requestsPerFile;
  return {
    range: at,
    severity: 'error',
    message: `This file holds more than ${n} requests: TradeReq reads the first ${n} and nothing from here on. Split the file.`,
    rule: 'too-many-requests',
  };
}
