/**
 * What a block holds while the parser reads it (block.ts drives, one file per construct fills it):
 * apart from the driver, so that the construct files import this and never the driver.
 */
import type { RuleId } from '../../rules';
import type {
  Diagnostic,
  Directive,
  FileVariable,
  Header,
  JsonBody,
  Param,
  Placement,
  Range,
  RequestBlock,
  RequestLine,
  Section,
  SectionKind,
  Severity,
  Token,
  VariableRef,
} from '../model';
import { Positions } from './position';
import { contentEnd, type SourceText } from './source';

/** State of an open JSON object that spans lines. */
export interface JsonScan {
  readonly into: 'json' | 'message';
  readonly startLine: number;
  readonly startChar: number;
  readonly parts: string[];
  depth: number;
  inString: boolean;
  escaped: boolean;
}

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
