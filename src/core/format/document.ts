/**
 * A parsed file as blocks, and the document model assembled from them: requests in order with
 * their indexes, the file's variables and directives (from its first block), names checked to be
 * unique, every diagnostic in order. Assembling a whole file is linear in its blocks; after an edit
 * the model is spliced (parser.ts, reparse), so the first answer costs little more than that block.
 */
import { BOUNDS } from '../bounds';
import { t } from '../l10n';
import { byPosition, type Diagnostic, type Range, type RequestBlock, type Token, type TradeReqDocument } from './model';
import type { Block, ParsedRequest } from './parse/block-state';

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
  const separatorLines: number[] = [];
  for (const b of blocks) {
    if (b.request) {
      b.request.index = requests.length;
      requests.push(b.request);
    }
    if (b.separator) separatorLines.push(b.separator.startLine);
  }
  return documentOf(blocks, requests, separatorLines, lineCount, extra);
}

/**
 * The model from its parts. Comments and diagnostics, which completion and hover never read, are
 * gathered from the blocks on first use: the first answer after an edit does no whole-file work.
 */
export function documentOf(
  blocks: readonly Block[],
  requests: readonly ParsedRequest[],
  separatorLines: readonly number[],
  lineCount: number,
  extra: readonly Diagnostic[],
): ParsedDocument {
  const first = blocks[0];
  let comments: Range[] | undefined;
  let diagnostics: Diagnostic[] | undefined;
  return {
    lineCount,
    variables: first?.variables ?? [],
    fileDirectives: first?.fileDirectives ?? [],
    requests,
    get comments(): Range[] {
      return (comments ??= this.blocks.flatMap((b) => b.comments));
    },
    variableRefs: first?.variableRefs ?? [],
    get diagnostics(): Diagnostic[] {
      return (diagnostics ??= gatherDiagnostics(this.blocks, this.requests, extra));
    },
    separatorLines,
    blocks,
    truncated: extra.some((d) => d.rule === 'too-many-requests'),
  };
}

/**
 * Before an edit's model takes over the lists of `prev` (reparse splices them in place), `prev`
 * gets copies: a Send All or a test run that holds it across the edit keeps the requests it had.
 * The copies are short-lived; the long-lived lists are never copied (large garbage, long pauses).
 */
export function handOver(prev: ParsedDocument): void {
  const lists = prev as {
    blocks: readonly Block[];
    requests: readonly ParsedRequest[];
    separatorLines: readonly number[];
  };
  lists.blocks = prev.blocks.slice();
  lists.requests = prev.requests.slice();
  lists.separatorLines = prev.separatorLines.slice();
}

function gatherDiagnostics(
  blocks: readonly Block[],
  requests: readonly RequestBlock[],
  extra: readonly Diagnostic[],
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const b of blocks) for (const d of b.diagnostics) diagnostics.push(d);
  const late = [...duplicateNames(requests), ...extra];
  // Blocks are in order and each block's diagnostics sorted: only added ones need a sort.
  if (late.length > 0) {
    for (const d of late) diagnostics.push(d);
    diagnostics.sort(byPosition);
  }
  return diagnostics;
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
    const message = t(
      'Another request is already named "{0}" (line {1}): names must be unique for chaining and for --request.',
      r.name.text,
      previous.range.startLine + 1,
    );
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
    message: t(
      'This file holds more than {0} requests: TradeReq reads the first {0} and nothing from here on. Split the file.',
      n,
    ),
    rule: 'too-many-requests',
  };
}
