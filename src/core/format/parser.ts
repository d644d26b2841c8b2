/**
 * Parser of the `.tradereq` format (format.md). One pass over the lines, no backtracking; it
 * never throws: whatever it cannot read becomes a diagnostic with a range.
 */
import type { RuleId } from '../rules';
import {
  METHODS,
  lineToken,
  range,
  type Diagnostic,
  type Directive,
  type FileVariable,
  type Header,
  type JsonBody,
  type Method,
  type Param,
  type Placement,
  type Range,
  type RequestBlock,
  type RequestLine,
  type Section,
  type SectionKind,
  type Token,
  type TradeReqDocument,
  type VariableRef,
} from './model';
import { BOUNDS, formatSize } from '../bounds';
import { jsonParams } from './json';

const CH_SPACE = 32;
const CH_TAB = 9;
const CH_HASH = 35;
const CH_SLASH = 47;
const CH_AT = 64;
const CH_LBRACKET = 91;
const CH_LBRACE = 123;

const METHOD_SET = new Set<string>(METHODS);
const VARIABLE_NAME = /^[A-Za-z_$][\w.$-]*$/;
const HEADER_LINE = /^([A-Za-z0-9][A-Za-z0-9_-]*)[ \t]*:(.*)$/;

function isSpace(c: number): boolean {
  return c === CH_SPACE || c === CH_TAB;
}

const tok = lineToken;

/** The end of `line` without trailing white space, not before `from`. */
function contentEnd(line: string, from = 0): number {
  let e = line.length;
  while (e > from && isSpace(line.charCodeAt(e - 1))) e--;
  return e;
}

function sliceTrimEnd(line: string, from: number): string {
  return line.slice(from, contentEnd(line, from));
}

/**
 * A `name = value` line. It keeps the line and offsets; its tokens, texts and range are made
 * when first asked for, so a large file costs few allocations (most are never asked).
 */
class LineParam implements Param {
  private nameToken?: Token;
  private valueToken?: Token;
  constructor(
    private readonly source: SourceText,
    readonly placement: Placement,
    readonly origin: 'section' | 'default',
    private readonly line: number,
    private readonly start: number,
    private readonly nameEnd: number,
    private readonly valueStart: number,
    private readonly valueEnd: number,
    private readonly lineEnd: number,
  ) {}
  private slice(from: number, to: number): string {
    const offset = this.source.starts[this.line]!;
    return this.source.text.slice(offset + from, offset + to);
  }
  get name(): Token {
    return (this.nameToken ??= lineToken(this.slice(this.start, this.nameEnd), this.line, this.start));
  }
  get value(): Token {
    return (this.valueToken ??= lineToken(this.slice(this.valueStart, this.valueEnd), this.line, this.valueStart));
  }
  get range(): Range {
    return range(this.line, this.start, this.line, this.lineEnd);
  }
  toJSON(): object {
    return { name: this.name, value: this.value, placement: this.placement, origin: this.origin, range: this.range };
  }
}

class LineVariableRef implements VariableRef {
  private nameText?: string;
  constructor(
    private readonly source: SourceText,
    private readonly line: number,
    private readonly start: number,
    private readonly end: number,
    private readonly nameStart: number,
    private readonly nameEnd: number,
  ) {}
  get name(): string {
    const offset = this.source.starts[this.line]!;
    return (this.nameText ??= this.source.text.slice(offset + this.nameStart, offset + this.nameEnd));
  }
  get range(): Range {
    return range(this.line, this.start, this.line, this.end);
  }
  get nameRange(): Range {
    return range(this.line, this.nameStart, this.line, this.nameEnd);
  }
  toJSON(): object {
    return { name: this.name, range: this.range, nameRange: this.nameRange };
  }
}

interface RequestLineParts {
  readonly methodEnd: number;
  readonly targetStart: number;
  readonly targetEnd: number;
  readonly versionStart: number;
  readonly versionEnd: number;
}

/**
 * `METHOD TARGET [HTTP/x]`: a word of letters, white space, a target starting with `/`, `{{` or
 * `http`, and optionally a version. Scanned by hand: it is tried on many lines.
 */
function scanRequestLine(line: string, first: number): RequestLineParts | undefined {
  let k = first;
  while (k < line.length) {
    const ch = line.charCodeAt(k);
    if (!((ch >= 65 && ch <= 90) || (ch >= 97 && ch <= 122))) break;
    k++;
  }
  const methodEnd = k;
  if (methodEnd === first || k >= line.length || !isSpace(line.charCodeAt(k))) return undefined;
  while (k < line.length && isSpace(line.charCodeAt(k))) k++;
  const targetStart = k;
  while (k < line.length && !isSpace(line.charCodeAt(k))) k++;
  const targetEnd = k;
  const c0 = line.charCodeAt(targetStart);
  const looksLikeTarget =
    c0 === CH_SLASH ||
    (c0 === CH_LBRACE && line.charCodeAt(targetStart + 1) === CH_LBRACE) ||
    /^https?:\/\//i.test(line.slice(targetStart, targetStart + 8));
  if (!looksLikeTarget) return undefined;
  while (k < line.length && isSpace(line.charCodeAt(k))) k++;
  const versionStart = k;
  while (k < line.length && !isSpace(line.charCodeAt(k))) k++;
  const versionEnd = k;
  while (k < line.length && isSpace(line.charCodeAt(k))) k++;
  if (k < line.length) return undefined;
  if (versionEnd > versionStart && !/^HTTP\/[\d.]+$/.test(line.slice(versionStart, versionEnd))) return undefined;
  return { methodEnd, targetStart, targetEnd, versionStart, versionEnd };
}

/** The document text and where each line starts, shared by the tokens that slice it lazily. */
interface SourceText {
  readonly text: string;
  readonly starts: number[];
}

/** Where each line of `text` starts; lines themselves are sliced one at a time and die young. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', nl + 1)) starts.push(nl + 1);
  return starts;
}

/** Line `n` of the source without its `\r\n` / `\n` ending. */
function lineAt(source: SourceText, n: number): string {
  const start = source.starts[n]!;
  const next = source.starts[n + 1];
  let end = next === undefined ? source.text.length : next - 1;
  if (end > start && source.text.charCodeAt(end - 1) === 13) end--;
  return source.text.slice(start, end);
}

/** Collects what a block holds until the next `###` or the end of the file. */
interface BlockState {
  startLine: number;
  endLine: number;
  /** Last line with content, so that a block's range leaves out the blank lines before the next `###`. */
  lastContentLine: number;
  lastContentEnd: number;
  separator?: Range;
  title?: Token;
  directives: Directive[];
  requestLine?: RequestLine;
  /** Where parameters without a section go, from the method (format.md, Placement). */
  defaultPlacement: Placement;
  headers: readonly Header[];
  sections: readonly Section[];
  params: Param[];
  json?: JsonBody;
  jsonOpen?: JsonScan;
  section?: SectionKind;
  /** Headers may follow the request line only until the first parameter or section. */
  headersClosed: boolean;
  refs: VariableRef[];
  /** Lines with content the block could not use before its request line. */
  strayBeforeRequest: readonly Range[];
}

/** State of an open `[json]` object that spans lines. */
interface JsonScan {
  startLine: number;
  startChar: number;
  parts: string[];
  depth: number;
  inString: boolean;
  escaped: boolean;
}

/** Shared by blocks that have no headers, sections or stray lines; replaced on the first push. */
const NONE: readonly never[] = Object.freeze([]);

function append<T>(list: readonly T[], item: T): readonly T[] {
  if (list === NONE) return [item];
  (list as T[]).push(item);
  return list;
}

function newBlock(startLine: number, startLineLength: number): BlockState {
  return {
    startLine,
    endLine: startLine,
    lastContentLine: startLine,
    lastContentEnd: startLineLength,
    defaultPlacement: 'query',
    directives: [],
    headers: NONE,
    sections: NONE,
    params: [],
    headersClosed: false,
    refs: [],
    strayBeforeRequest: NONE,
  };
}

/** A file over BOUNDS.fileChars is not read at all: one diagnostic says so. */
function oversizedDocument(chars: number): TradeReqDocument {
  const message = `This file has ${chars} characters, more than TradeReq reads (${formatSize(BOUNDS.fileChars)}): nothing in it is checked or sent. Split it into smaller files.`;
  const diagnostic: Diagnostic = { range: range(0, 0, 0, 0), severity: 'error', message, rule: 'file-too-large' };
  return {
    lineCount: 1,
    variables: NONE,
    fileDirectives: NONE,
    requests: NONE,
    comments: NONE,
    variableRefs: NONE,
    diagnostics: [diagnostic],
    separatorLines: NONE,
  };
}

export function parse(text: string): TradeReqDocument {
  if (text.length > BOUNDS.fileChars) return oversizedDocument(text.length);
  const source: SourceText = { text, starts: lineStarts(text) };
  const lineCount = source.starts.length;
  const diagnostics: Diagnostic[] = [];
  const comments: Range[] = [];
  const variables: FileVariable[] = [];
  const fileDirectives: Directive[] = [];
  const docRefs: VariableRef[] = [];
  const requests: RequestBlock[] = [];
  const names = new Map<string, Token>();
  const variablesByName = new Map<string, FileVariable>();
  let sawFirstRequestStart = false;
  let tooManyRequests = false;
  const separatorLines: number[] = [];

  const error = (r: Range, message: string, rule: RuleId, severity: Diagnostic['severity'] = 'error'): void => {
    diagnostics.push({ range: r, severity, message, rule });
  };

  let block = newBlock(0, 0);
  let isPreamble = true;

  const finishBlock = (endLine: number): void => {
    if (block.jsonOpen) closeJson(block, endLine, false, undefined, diagnostics);
    block.endLine = Math.max(block.startLine, Math.min(endLine, block.lastContentLine));
    if (block.requestLine) {
      const nameDirective = block.directives.find((d) => d.name.text === 'name');
      const name = nameDirective?.args;
      if (name) {
        const previous = names.get(name.text);
        if (previous) {
          error(
            name.range,
            `Another request is already named "${name.text}" (line ${previous.range.startLine + 1}): names must be unique for chaining and for --request.`,
            'duplicate-name',
            'warning',
          );
        } else {
          names.set(name.text, name);
        }
      }
      requests.push({
        index: requests.length,
        range: range(block.startLine, 0, block.endLine, block.lastContentEnd),
        separator: block.separator,
        title: block.title,
        directives: block.directives,
        name,
        requestLine: block.requestLine,
        headers: block.headers,
        sections: block.sections,
        params: block.params,
        json: block.json,
        variableRefs: block.refs,
      });
    } else {
      if (isPreamble) {
        for (const d of block.directives) fileDirectives.push(d);
        for (const d of block.directives) {
          if (d.name.text === 'name') {
            error(
              d.range,
              '`# @name` names a request: put it under the `###` line of the request it names.',
              'misplaced-directive',
              'warning',
            );
          }
        }
      } else if (block.directives.length > 0 || block.headers.length > 0) {
        error(
          block.separator ?? range(block.startLine, 0, block.startLine, 0),
          'This request has no request line: add one such as `POST /api/v3/order`.',
          'missing-request-line',
        );
      }
    }
    for (const r of block.strayBeforeRequest) {
      error(
        r,
        'No request line above this line: start the request with a line such as `POST /api/v3/order`.',
        'missing-request-line',
      );
    }
    isPreamble = false;
  };

  for (let i = 0; i < lineCount; i++) {
    const line = lineAt(source, i);
    // Leading white space is allowed everywhere; `first` is the first visible character.
    let first = 0;
    while (first < line.length && isSpace(line.charCodeAt(first))) first++;
    if (first === line.length) {
      if (block.jsonOpen) block.jsonOpen.parts.push(line);
      continue;
    }
    const c = line.charCodeAt(first);

    // `###` always starts a request, even inside an unclosed JSON body, so one typo cannot swallow the file.
    if (c === CH_HASH && line.startsWith('###', first)) {
      finishBlock(i - 1);
      if (requests.length >= BOUNDS.requestsPerFile) {
        error(
          range(i, first, i, line.length),
          `This file holds more than ${BOUNDS.requestsPerFile} requests: TradeReq reads the first ${BOUNDS.requestsPerFile} and nothing from here on. Split the file.`,
          'too-many-requests',
        );
        tooManyRequests = true;
        break;
      }
      block = newBlock(i, contentEnd(line));
      separatorLines.push(i);
      sawFirstRequestStart = true;
      block.separator = range(i, first, i, line.length);
      let t = first + 3;
      while (t < line.length && line.charCodeAt(t) === CH_HASH) t++;
      while (t < line.length && isSpace(line.charCodeAt(t))) t++;
      const title = sliceTrimEnd(line, t);
      if (title.length > 0) block.title = tok(title, i, t);
      continue;
    }
    block.lastContentLine = i;
    block.lastContentEnd = contentEnd(line);

    if (block.jsonOpen) {
      continueJson(source, block, line, i, 0, diagnostics);
      continue;
    }

    // Comments and directives: `# text`, `// text`, `# @word args`.
    const isComment = c === CH_HASH || (c === CH_SLASH && line.charCodeAt(first + 1) === CH_SLASH);
    if (isComment) {
      let t = first + (c === CH_HASH ? 1 : 2);
      while (t < line.length && isSpace(line.charCodeAt(t))) t++;
      const afterAt = line.charCodeAt(t + 1) | 32;
      if (line.charCodeAt(t) === CH_AT && afterAt >= 97 && afterAt <= 122) {
        block.directives.push(readDirective(line, i, t, first));
      } else {
        comments.push(range(i, first, i, line.length));
      }
      continue;
    }

    // File variable: `@name = value`.
    if (c === CH_AT) {
      const eq = line.indexOf('=', first);
      const rawName = (eq < 0 ? line.slice(first + 1) : line.slice(first + 1, eq)).trim();
      const whole = range(i, first, i, line.length);
      if (eq < 0 || !VARIABLE_NAME.test(rawName)) {
        error(
          whole,
          'A file variable is written `@name = value` (name: letters, digits, `_`, `-`, `.`).',
          'bad-variable',
        );
        continue;
      }
      if (block.requestLine || sawFirstRequestStart) {
        error(
          whole,
          'File variables stand at the top of the file, before the first `###` or request line: move this line up.',
          'misplaced-variable',
        );
        continue;
      }
      const nameStart = line.indexOf(rawName, first + 1);
      let v = eq + 1;
      while (v < line.length && isSpace(line.charCodeAt(v))) v++;
      const value = tok(sliceTrimEnd(line, v), i, v);
      const variable: FileVariable = { name: tok(rawName, i, nameStart), value, range: whole };
      const previous = variablesByName.get(rawName);
      if (previous) {
        error(
          variable.name.range,
          `"${rawName}" is already defined on line ${previous.range.startLine + 1}; the later definition is used.`,
          'duplicate-variable',
          'warning',
        );
      }
      variables.push(variable);
      variablesByName.set(rawName, variable);
      scanRefs(source, line, i, v, line.length, docRefs, diagnostics);
      continue;
    }

    // Section line: `[query]`, `[body]`, `[json]`.
    if (c === CH_LBRACKET) {
      const inner = line
        .slice(first + 1, line.indexOf(']', first) < 0 ? line.length : line.indexOf(']', first))
        .trim()
        .toLowerCase();
      const r = range(i, first, i, contentEnd(line));
      if (!block.requestLine) {
        block.strayBeforeRequest = append(block.strayBeforeRequest, r);
        continue;
      }
      if (inner !== 'query' && inner !== 'body' && inner !== 'json') {
        error(r, `Unknown section "${line.slice(first).trim()}": use [query], [body] or [json].`, 'unknown-section');
        block.section = undefined;
        continue;
      }
      if (inner === 'json' && (block.json || block.sections.some((s) => s.kind === 'json'))) {
        error(r, 'A request has one JSON body: remove the second [json] section.', 'json-twice');
      } else if (
        (inner === 'json' && block.sections.some((s) => s.kind === 'body')) ||
        (inner === 'body' && block.sections.some((s) => s.kind === 'json'))
      ) {
        error(
          r,
          'A request has at most one body: [json] and [body] do not mix. Move these parameters into the JSON object or into [query].',
          'json-and-body',
        );
      }
      block.sections = append(block.sections, { kind: inner, range: r });
      block.section = inner;
      block.headersClosed = true;
      continue;
    }

    // Request line.
    const requestParts = scanRequestLine(line, first);
    if (requestParts) {
      if (block.requestLine) {
        error(
          range(i, first, i, line.length),
          'A second request line in one request: start a new request with a `###` line above it.',
          'second-request-line',
        );
        continue;
      }
      block.requestLine = readRequestLine(source, requestParts, line, i, first, block, diagnostics);
      block.defaultPlacement = defaultPlacement(block.requestLine.method.text);
      continue;
    }

    if (!block.requestLine) {
      block.strayBeforeRequest = append(block.strayBeforeRequest, range(i, first, i, line.length));
      continue;
    }

    // A `[json]` section takes one JSON object.
    if (block.section === 'json') {
      if (c === CH_LBRACE && !block.json) {
        block.jsonOpen = { startLine: i, startChar: first, parts: [], depth: 0, inString: false, escaped: false };
        continueJson(source, block, line, i, first, diagnostics);
      } else {
        error(
          range(i, first, i, line.length),
          block.json
            ? 'Only comments may follow the JSON body; add a section line ([query]) for more parameters.'
            : 'A [json] section holds one JSON object starting with `{`.',
          'json-expected',
        );
      }
      continue;
    }

    const eq = line.indexOf('=', first);
    const colon = line.indexOf(':', first);
    if (colon >= 0 && (eq < 0 || colon < eq)) {
      const headerMatch = HEADER_LINE.exec(line.slice(first));
      if (headerMatch) {
        if (block.headersClosed) {
          error(
            range(i, first, i, line.length),
            'Headers go directly under the request line, before the parameters: move this line up.',
            'misplaced-header',
          );
          continue;
        }
        const name = tok(headerMatch[1]!, i, first);
        let v = first + headerMatch[1]!.length;
        while (line.charCodeAt(v) !== 58) v++;
        v++;
        while (v < line.length && isSpace(line.charCodeAt(v))) v++;
        block.headers = append(block.headers, {
          name,
          value: tok(sliceTrimEnd(line, v), i, v),
          range: range(i, first, i, line.length),
        });
        scanRefs(source, line, i, v, line.length, block.refs, diagnostics);
        continue;
      }
    }

    if (eq >= 0) {
      let nameEnd = eq;
      while (nameEnd > first && isSpace(line.charCodeAt(nameEnd - 1))) nameEnd--;
      if (nameEnd === first) {
        error(range(i, first, i, line.length), 'A parameter needs a name: write `name = value`.', 'missing-name');
        continue;
      }
      let v = eq + 1;
      while (v < line.length && isSpace(line.charCodeAt(v))) v++;
      let valueEnd = line.length;
      while (valueEnd > v && isSpace(line.charCodeAt(valueEnd - 1))) valueEnd--;
      const placement: Placement =
        block.section === 'query' || block.section === 'body' ? block.section : block.defaultPlacement;
      block.params.push(
        new LineParam(
          source,
          placement,
          block.section ? 'section' : 'default',
          i,
          first,
          nameEnd,
          v,
          valueEnd,
          line.length,
        ),
      );
      block.headersClosed = true;
      scanRefs(source, line, i, first, line.length, block.refs, diagnostics);
      continue;
    }

    error(
      range(i, first, i, line.length),
      'Cannot read this line: write a parameter `name = value`, a section line such as [body], a header `Name: value` under the request line, or a comment starting with #.',
      'unreadable-line',
    );
  }

  if (!tooManyRequests) finishBlock(lineCount - 1);
  diagnostics.sort((a, b) => a.range.startLine - b.range.startLine || a.range.startChar - b.range.startChar);
  return {
    lineCount,
    variables,
    fileDirectives,
    requests,
    comments,
    variableRefs: docRefs,
    diagnostics,
    separatorLines,
  };
}

/** GET and DELETE parameters go in the query string, POST and PUT in the form body (format.md). */
export function defaultPlacement(method: string): Placement {
  const m = method.toUpperCase();
  return m === 'POST' || m === 'PUT' ? 'body' : 'query';
}

function readDirective(line: string, lineNo: number, at: number, first: number): Directive {
  let e = at + 1;
  while (e < line.length && !isSpace(line.charCodeAt(e))) e++;
  const name = tok(line.slice(at + 1, e), lineNo, at + 1);
  while (e < line.length && isSpace(line.charCodeAt(e))) e++;
  const argText = sliceTrimEnd(line, e);
  return {
    name,
    args: argText.length > 0 ? tok(argText, lineNo, e) : undefined,
    range: range(lineNo, first, lineNo, contentEnd(line)),
  };
}

function readRequestLine(
  source: SourceText,
  parts: RequestLineParts,
  line: string,
  i: number,
  first: number,
  block: BlockState,
  diagnostics: Diagnostic[],
): RequestLine {
  const methodText = line.slice(first, parts.methodEnd);
  const method = tok(methodText, i, first);
  const targetStart = parts.targetStart;
  const targetText = line.slice(targetStart, parts.targetEnd);
  const target = tok(targetText, i, targetStart);
  if (!METHOD_SET.has(methodText)) {
    const upper = methodText.toUpperCase();
    diagnostics.push(
      METHOD_SET.has(upper)
        ? {
            range: method.range,
            severity: 'error',
            message: `Write the method in capitals: ${upper}.`,
            rule: 'method-case',
            fix: { title: `Change to ${upper}`, replacement: upper },
          }
        : {
            range: method.range,
            severity: 'error',
            message: `The service accepts GET, POST, PUT and DELETE (spec §4.1), not ${methodText}.`,
            rule: 'unknown-method',
          },
    );
  }
  const q = targetText.indexOf('?');
  const path = q < 0 ? target : tok(targetText.slice(0, q), i, targetStart);
  let query: Token | undefined;
  if (q >= 0) {
    query = tok(targetText.slice(q + 1), i, targetStart + q + 1);
    readInlineQuery(query, block.params, diagnostics);
  }
  const version =
    parts.versionEnd > parts.versionStart
      ? tok(line.slice(parts.versionStart, parts.versionEnd), i, parts.versionStart)
      : undefined;
  scanRefs(source, line, i, targetStart, parts.targetEnd, block.refs, diagnostics);
  return { range: range(i, first, i, contentEnd(line)), method, target, path, query, version };
}

/** `?a=1&b=2` on the request line: `[query]` parameters, written percent-encoded as in a URL. */
function readInlineQuery(query: Token, params: Param[], diagnostics: Diagnostic[]): void {
  const line = query.range.startLine;
  let start = query.range.startChar;
  for (const part of query.text.split('&')) {
    if (part.length > 0) {
      const eq = part.indexOf('=');
      const rawName = eq < 0 ? part : part.slice(0, eq);
      const rawValue = eq < 0 ? '' : part.slice(eq + 1);
      const name: Token = { text: percentDecode(rawName), range: range(line, start, line, start + rawName.length) };
      const valueStart = eq < 0 ? start + part.length : start + eq + 1;
      const value: Token = {
        text: percentDecode(rawValue),
        range: range(line, valueStart, line, valueStart + rawValue.length),
      };
      if (eq < 0) {
        diagnostics.push({
          range: name.range,
          severity: 'warning',
          message: `"${rawName}" has no "=": it is sent as ${rawName}= with an empty value, which is signed too.`,
          rule: 'empty-value',
        });
      }
      params.push({
        name,
        value,
        placement: 'query',
        origin: 'inline',
        range: range(line, start, line, start + part.length),
      });
    }
    start += part.length + 1;
  }
}

/** Decodes `%XX` sequences; a malformed sequence is kept as written. */
export function percentDecode(s: string): string {
  if (s.indexOf('%') < 0) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s.replace(/%([0-9A-Fa-f]{2})/g, (m, hex: string) => {
      const code = parseInt(hex, 16);
      return code < 0x80 ? String.fromCharCode(code) : m;
    });
  }
}

/** Records `{{name}}` references in `line[from, to)`. */
function scanRefs(
  source: SourceText,
  line: string,
  lineNo: number,
  from: number,
  to: number,
  out: VariableRef[],
  diagnostics: Diagnostic[],
): void {
  let p = line.indexOf('{{', from);
  while (p >= 0 && p < to) {
    const close = line.indexOf('}}', p + 2);
    if (close < 0 || close + 2 > to) {
      diagnostics.push({
        range: range(lineNo, p, lineNo, to),
        severity: 'error',
        message: 'Unclosed `{{`: write `{{name}}`.',
        rule: 'unclosed-variable',
      });
      return;
    }
    let nameStart = p + 2;
    let nameEnd = close;
    while (nameStart < nameEnd && isSpace(line.charCodeAt(nameStart))) nameStart++;
    while (nameEnd > nameStart && isSpace(line.charCodeAt(nameEnd - 1))) nameEnd--;
    if (nameStart === nameEnd) {
      diagnostics.push({
        range: range(lineNo, p, lineNo, close + 2),
        severity: 'error',
        message: 'Empty variable `{{}}`: write a variable name between the braces.',
        rule: 'empty-variable',
      });
    } else {
      out.push(new LineVariableRef(source, lineNo, p, close + 2, nameStart, nameEnd));
    }
    p = line.indexOf('{{', close + 2);
  }
}

/** Feeds one line (from `from`) into the open JSON object of `block`; closes it at depth 0. */
function continueJson(
  source: SourceText,
  block: BlockState,
  line: string,
  lineNo: number,
  from: number,
  diagnostics: Diagnostic[],
): void {
  const scan = block.jsonOpen!;
  let end = -1;
  for (let k = from; k < line.length; k++) {
    const ch = line.charCodeAt(k);
    if (scan.inString) {
      if (scan.escaped) scan.escaped = false;
      else if (ch === 92) scan.escaped = true;
      else if (ch === 34) scan.inString = false;
    } else if (ch === 34) {
      scan.inString = true;
    } else if (ch === CH_LBRACE || ch === 91) {
      scan.depth++;
    } else if (ch === 125 || ch === 93) {
      scan.depth--;
      if (scan.depth === 0) {
        end = k + 1;
        break;
      }
    }
  }
  // A JSON string cannot span lines; reset so that one bad quote does not hide the rest.
  scan.inString = false;
  scan.escaped = false;
  scanRefs(source, line, lineNo, from, end < 0 ? line.length : end, block.refs, diagnostics);
  if (end < 0) {
    scan.parts.push(line.slice(from));
    return;
  }
  scan.parts.push(line.slice(from, end));
  const rest = line.slice(end).trim();
  if (rest.length > 0 && !rest.startsWith('#') && !rest.startsWith('//')) {
    diagnostics.push({
      range: range(lineNo, end, lineNo, contentEnd(line)),
      severity: 'error',
      message: 'Text after the end of the JSON object: remove it, or move it to a line of its own.',
      rule: 'json-trailing',
    });
  }
  closeJson(block, lineNo, true, end, diagnostics);
}

function closeJson(
  block: BlockState,
  endLine: number,
  closed: boolean,
  endChar: number | undefined,
  diagnostics: Diagnostic[],
): void {
  const scan = block.jsonOpen!;
  block.jsonOpen = undefined;
  const text = scan.parts.join('\n');
  const lastPart = scan.parts[scan.parts.length - 1] ?? '';
  const bodyEndLine = closed ? endLine : scan.startLine + scan.parts.length - 1;
  const bodyEndChar = endChar ?? (scan.parts.length === 1 ? scan.startChar + lastPart.length : lastPart.length);
  const json: JsonBody = { text, range: range(scan.startLine, scan.startChar, bodyEndLine, bodyEndChar), closed };
  block.json = json;
  const { params, diagnostics: found } = jsonParams(json);
  for (const p of params) block.params.push(p);
  if (!closed) {
    found.push({
      range: range(scan.startLine, scan.startChar, scan.startLine, scan.startChar + 1),
      severity: 'error',
      message: 'The JSON body is not closed: add the missing `}`.',
      rule: 'json-unclosed',
    });
  }
  for (const d of found) diagnostics.push(d);
}

export type { Method };
