/**
 * One block of a `.tradereq` file: from a `###` line (or the start of the file) to the line
 * before the next `###`. A block is parsed on its own, so an edit re-parses only its block; the
 * first block may also hold the file's variables and directives. A short driver over one
 * function per construct (httpyac's shape): adding a construct adds a file, not a branch here.
 */
import type { RuleId } from '../../rules';
import {
  byPosition,
  type Diagnostic,
  type Directive,
  type FileVariable,
  type Header,
  type JsonBody,
  type Param,
  type Placement,
  type Range,
  type RequestBlock,
  type RequestLine,
  type Section,
  type SectionKind,
  type Severity,
  type Token,
  type VariableRef,
} from '../model';
import { bodyLine } from './body-line';
import { commentOrDirective, isCommentStart } from './comment';
import { closeJson, continueJson, type JsonScan } from './json-body';
import { Positions } from './position';
import { requestLine } from './request-line';
import { section } from './section';
import { separator } from './separator';
import { CH_AT, CH_LBRACKET, contentEnd, firstVisible, lineAt, type SourceText } from './source';
import { fileVariable } from './variable';

/** Shared by blocks that have none of a list; replaced on the first push. */
export const NONE: readonly never[] = Object.freeze([]);

export function append<T>(list: readonly T[], item: T): readonly T[] {
  if (list === NONE) return [item];
  (list as T[]).push(item);
  return list;
}

/** A request as the parser makes it; the document gives it its index among the file's requests. */
export interface ParsedRequest extends RequestBlock {
  index: number;
}

/** What a block holds while it is read, and what it is once read. */
export class Block {
  readonly pos: Positions;
  // Lists most blocks never fill share NONE until their first item (fewer allocations in large files).
  diagnostics: readonly Diagnostic[] = NONE;
  comments: readonly Range[] = NONE;
  /** The file's variables and the references in their values (the first block only). */
  variables: readonly FileVariable[] = NONE;
  variableRefs: VariableRef[] = NONE as never[];
  /** The variables by name, made with the first (a later definition is reported, in linear time). */
  variablesByName?: Map<string, FileVariable>;
  /** Directives above the first request line of a file whose first request follows a `###`. */
  fileDirectives: readonly Directive[] = NONE;
  endLine: number;
  /** Last line with content, so that a block's range leaves out the blank lines before the next `###`. */
  lastContentLine: number;
  lastContentEnd = 0;
  separator?: Range;
  title?: Token;
  readonly directives: Directive[] = [];
  requestLine?: RequestLine;
  /** Where parameters without a section go, from the method (docs/format.md, Placement). */
  defaultPlacement: Placement = 'query';
  headers: readonly Header[] = NONE;
  sections: readonly Section[] = NONE;
  /** The kinds among `sections`, so that a check per section line takes constant time (hostile files). */
  readonly sectionKinds = new Set<SectionKind>();
  readonly params: Param[] = [];
  json?: JsonBody;
  messages: readonly JsonBody[] = NONE;
  streams: readonly Token[] = NONE;
  jsonOpen?: JsonScan;
  section?: SectionKind;
  /** Headers may follow the request line only until the first parameter or section. */
  headersClosed = false;
  readonly refs: VariableRef[] = [];
  /** Lines with content the block could not use before its request line. */
  strayBeforeRequest: readonly Range[] = NONE;
  /** A `###` or a request line has been seen: file variables may no longer stand here. */
  sawRequestStart: boolean;
  request?: ParsedRequest;

  constructor(
    readonly source: SourceText,
    /** The file's first block (no `###` line of its own). */
    readonly first: boolean,
    readonly startLine: number,
    delta: number,
  ) {
    this.pos = new Positions(delta);
    this.endLine = startLine;
    this.lastContentLine = startLine;
    this.sawRequestStart = !first;
  }

  error(r: Range, message: string, rule: RuleId, severity: Severity = 'error'): void {
    this.report({ range: r, severity, message, rule });
  }

  report(d: Diagnostic): void {
    this.diagnostics = append(this.diagnostics, d);
  }

  /** The line `i` has content: the block reaches at least to it. */
  noteContent(i: number, line: string): void {
    this.lastContentLine = i;
    this.lastContentEnd = contentEnd(line);
  }

  isWebSocket(): boolean {
    return this.requestLine?.method.text === 'WS';
  }
}

/** Parses lines [from, to) of `source` as one block. */
export function parseBlock(source: SourceText, from: number, to: number, first: boolean, delta: number): Block {
  const b = new Block(source, first, from, delta);
  for (let i = from; i < to; i++) {
    const line = lineAt(source, i);
    const start = firstVisible(line);
    if (start === line.length) {
      if (b.jsonOpen) b.jsonOpen.parts.push(line);
    } else if (i === from && !first) {
      separator(b, line, i, start);
    } else {
      b.noteContent(i, line);
      if (b.jsonOpen) continueJson(b, line, i, 0);
      else readLine(b, line, i, start);
    }
  }
  finishBlock(b, to - 1);
  return b;
}

function readLine(b: Block, line: string, i: number, first: number): void {
  const c = line.charCodeAt(first);
  if (isCommentStart(line, first, c)) commentOrDirective(b, line, i, first, c);
  else if (c === CH_AT) fileVariable(b, line, i, first);
  else if (c === CH_LBRACKET) section(b, line, i, first);
  else if (!requestLine(b, line, i, first)) bodyLine(b, line, i, first, c);
}

/** Closes what is open, makes the request (if the block has a request line), reports what is left over. */
function finishBlock(b: Block, endLine: number): void {
  if (b.jsonOpen) closeJson(b, endLine, false, undefined);
  b.endLine = Math.max(b.startLine, Math.min(endLine, b.lastContentLine));
  if (b.requestLine) b.request = makeRequest(b, b.requestLine);
  else if (b.first) readFileDirectives(b);
  else if (b.directives.length > 0 || b.headers.length > 0) {
    const at = b.separator ?? b.pos.range(b.startLine, 0, b.startLine, 0);
    b.error(at, 'This request has no request line: add one such as `POST /api/v3/order`.', 'missing-request-line');
  }
  for (const r of b.strayBeforeRequest) {
    const message = 'No request line above this line: start the request with a line such as `POST /api/v3/order`.';
    b.error(r, message, 'missing-request-line');
  }
  if (b.diagnostics.length > 1) (b.diagnostics as Diagnostic[]).sort(byPosition);
}

/** In a file whose requests start with `###`, the directives above the first belong to every request. */
function readFileDirectives(b: Block): void {
  b.fileDirectives = b.directives;
  for (const d of b.directives) {
    if (d.name.text !== 'name') continue;
    const message = '`# @name` names a request: put it under the `###` line of the request it names.';
    b.error(d.range, message, 'misplaced-directive', 'warning');
  }
}

function makeRequest(b: Block, requestLine: RequestLine): ParsedRequest {
  return {
    index: 0,
    range: b.pos.range(b.startLine, 0, b.endLine, b.lastContentEnd),
    separator: b.separator,
    title: b.title,
    directives: b.directives,
    name: b.directives.find((d) => d.name.text === 'name')?.args,
    requestLine,
    headers: b.headers,
    sections: b.sections,
    params: b.params,
    json: b.json,
    variableRefs: b.refs,
    streams: b.streams,
    messages: b.messages,
  };
}
