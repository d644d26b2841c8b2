/**
 * The document model of a `.tradereq` file (docs/format.md). Every token carries its range, so the
 * editor can complete, hover and diagnose at any position from one parse.
 * Lines and characters are 0-based; characters count UTF-16 code units, as editors do.
 */

import type { RuleId, Severity } from '../rules';

export interface Range {
  readonly startLine: number;
  readonly startChar: number;
  readonly endLine: number;
  readonly endChar: number;
}

export interface Token {
  readonly text: string;
  readonly range: Range;
}

export type { Severity } from '../rules';

export interface Diagnostic {
  readonly range: Range;
  readonly severity: Severity;
  readonly message: string;
  /** The rule (src/core/rules.ts): for quick fixes, tests and the rules table of docs/guide.md. */
  readonly rule: RuleId;
  /** The service error code this diagnostic prevents, when there is one. */
  readonly prevents?: number;
  /** A replacement text that fixes the problem at `range` (quick fix). */
  readonly fix?: { readonly title: string; readonly replacement: string };
}

/** `{{name}}` in a value; `range` covers the braces, `nameRange` the trimmed name. */
export interface VariableRef {
  readonly name: string;
  readonly range: Range;
  readonly nameRange: Range;
}

/** `@name = value` above the first request. */
export interface FileVariable {
  readonly name: Token;
  readonly value: Token;
  readonly range: Range;
}

/** `# @word args`: `args` is the rest of the line, trimmed (absent when empty). */
export interface Directive {
  readonly name: Token;
  readonly args?: Token;
  readonly range: Range;
}

/** A request's `# @name`: letters, digits, `_` and `-`, starting with a letter or `_`. */
export const REQUEST_NAME = /^[A-Za-z_][\w-]*$/;

/** The HTTP methods the service accepts (§4.1). */
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export const METHODS: readonly Method[] = ['GET', 'POST', 'PUT', 'DELETE'];

/** The request line method of a WebSocket request (docs/format.md, WebSocket requests). */
export const WS_METHOD = 'WS';

export interface RequestLine {
  readonly range: Range;
  readonly method: Token;
  /** Everything after the method: path or URL, with the inline query. */
  readonly target: Token;
  /** The target without `?query`. */
  readonly path: Token;
  /** The inline query after `?`, without the `?`. */
  readonly query?: Token;
  /** A trailing `HTTP/1.1`, accepted as REST Client users write it, and ignored. */
  readonly version?: Token;
}

export interface Header {
  readonly name: Token;
  readonly value: Token;
  readonly range: Range;
}

export type Placement = 'query' | 'body';
/** `[query]`, `[body]`, `[json]` for HTTP requests; `[subscribe]`, `[message]` for WebSocket ones. */
export type SectionKind = 'query' | 'body' | 'json' | 'subscribe' | 'message';

/**
 * Where a parameter was written: inline on the request line, under a section line, with no
 * section (placement from the method), or as a top-level member of a `[json]` body.
 */
type ParamOrigin = 'inline' | 'section' | 'default' | 'json';

export interface Param {
  readonly name: Token;
  /** The raw value as written (for `json`, a string's content without quotes, or the literal). */
  readonly value: Token;
  readonly placement: Placement;
  readonly origin: ParamOrigin;
  readonly range: Range;
  /** For `json` members: the value was a JSON string (decimals go as text, spec §2.1). */
  readonly quoted?: boolean;
}

export interface Section {
  readonly kind: SectionKind;
  readonly range: Range;
}

export interface JsonBody {
  /** From the opening `{` to the closing `}` as written, before variable substitution. */
  readonly text: string;
  readonly range: Range;
  /** False when the file ends (or the next request starts) before the object closes. */
  readonly closed: boolean;
}

export interface RequestBlock {
  /** Position among the file's requests, 0-based. */
  readonly index: number;
  /** From the `###` line (or the first line of the file) to the block's last line. */
  readonly range: Range;
  readonly separator?: Range;
  readonly title?: Token;
  readonly directives: readonly Directive[];
  /** The argument of `# @name`. */
  readonly name?: Token;
  readonly requestLine: RequestLine;
  readonly headers: readonly Header[];
  readonly sections: readonly Section[];
  /** In the order written; inline query parameters first. */
  readonly params: readonly Param[];
  readonly json?: JsonBody;
  readonly variableRefs: readonly VariableRef[];
  /** A WebSocket request: the stream names under `[subscribe]`, one a line, as written. */
  readonly streams: readonly Token[];
  /** A WebSocket request: each `[message]` JSON object, in order. */
  readonly messages: readonly JsonBody[];
}

/** Whether `request` is a WebSocket request (`WS PATH`). */
export function isWebSocket(request: RequestBlock): boolean {
  return request.requestLine.method.text === WS_METHOD;
}

export interface TradeReqDocument {
  readonly lineCount: number;
  readonly variables: readonly FileVariable[];
  /** Directives above the first request line of a file whose first request follows a `###`. */
  readonly fileDirectives: readonly Directive[];
  readonly requests: readonly RequestBlock[];
  readonly comments: readonly Range[];
  /** Variable references outside requests (in file variable values). */
  readonly variableRefs: readonly VariableRef[];
  /** What could not be read, with ranges. The parser never throws. */
  readonly diagnostics: readonly Diagnostic[];
  /** The line of every `###`, in order: the blocks' boundaries, also of blocks without a request line. */
  readonly separatorLines: readonly number[];
}

/** Diagnostics in the order of their positions in the file. */
export function byPosition(a: Diagnostic, b: Diagnostic): number {
  return a.range.startLine - b.range.startLine || a.range.startChar - b.range.startChar;
}

export function range(startLine: number, startChar: number, endLine: number, endChar: number): Range {
  return { startLine, startChar, endLine, endChar };
}

export function contains(r: Range, line: number, char: number): boolean {
  if (line < r.startLine || line > r.endLine) return false;
  if (line === r.startLine && char < r.startChar) return false;
  if (line === r.endLine && char > r.endChar) return false;
  return true;
}

/**
 * The request of the block that holds `line`, counting the blank lines up to the next `###`:
 * where a line typed under a request belongs. Undefined in a block without a request line.
 */
export function requestInBlock(doc: TradeReqDocument, line: number): RequestBlock | undefined {
  const seps = doc.separatorLines;
  let lo = 0;
  let hi = seps.length - 1;
  let sep = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (seps[mid]! <= line) {
      sep = seps[mid]!;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  const first = doc.requests[0];
  if (sep < 0) return first && !first.separator ? first : undefined;
  const r = requestAtLine(doc, sep);
  return r && r.separator?.startLine === sep ? r : undefined;
}

/** The request whose block holds `line`, if any. */
export function requestAtLine(doc: TradeReqDocument, line: number): RequestBlock | undefined {
  const requests = doc.requests;
  let lo = 0;
  let hi = requests.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = requests[mid]!;
    if (line < r.range.startLine) hi = mid - 1;
    else if (line > r.range.endLine) lo = mid + 1;
    else return r;
  }
  return undefined;
}

/** A single-line token that is its own range: one object per token keeps large files cheap to parse. */
class LineToken implements Token, Range {
  readonly startLine: number;
  readonly endLine: number;
  readonly endChar: number;
  constructor(
    readonly text: string,
    line: number,
    readonly startChar: number,
  ) {
    this.startLine = line;
    this.endLine = line;
    this.endChar = startChar + text.length;
  }
  get range(): Range {
    return this;
  }
  toJSON(): Token {
    return { text: this.text, range: range(this.startLine, this.startChar, this.endLine, this.endChar) };
  }
}

export function lineToken(text: string, line: number, startChar: number): Token {
  return new LineToken(text, line, startChar);
}
