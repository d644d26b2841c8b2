/**
 * One block of a `.tradereq` file: from a `###` line (or the start of the file) to the line
 * before the next `###`. A block is parsed on its own, so an edit re-parses only its block; the
 * first block may also hold the file's variables and directives. A short driver over one
 * function per construct (httpyac's shape): adding a construct adds a file, not a branch here.
 */
import { t } from '../../l10n';
import { byPosition, type Diagnostic, type RequestLine } from '../model';
import { bodyLine } from './body-line';
import { commentOrDirective, isCommentStart } from './comment';
import { closeJson, continueJson } from './json-body';
import { requestLine } from './request-line';
import { section } from './section';
import { separator } from './separator';
import { CH_AT, CH_LBRACKET, firstVisible, lineAt, type SourceText } from './source';
import { Block, type ParsedRequest } from './block-state';
import { fileVariable } from './variable';

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
    const message = t('This request has no request line: add one such as `POST /api/v3/order`.');
    b.error(at, message, 'missing-request-line');
  }
  for (const r of b.strayBeforeRequest) {
    const message = t('No request line above this line: start the request with a line such as `POST /api/v3/order`.');
    b.error(r, message, 'missing-request-line');
  }
  if (b.diagnostics.length > 1) (b.diagnostics as Diagnostic[]).sort(byPosition);
}

/** In a file whose requests start with `###`, the directives above the first belong to every request. */
function readFileDirectives(b: Block): void {
  b.fileDirectives = b.directives;
  for (const d of b.directives) {
    if (d.name.text !== 'name') continue;
    const message = t('`# @name` names a request: put it under the `###` line of the request it names.');
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
