/**
 * The lines below a request line: headers (`Name: value`, directly under it), parameters
 * (`name = value`), the start of a `[json]`/`[message]` object, stream names under `[subscribe]`.
 */
import { t } from '../../l10n';
import type { Param, Placement, Range, Token } from '../model';
import { append, type Block } from './block-state';
import { openJson } from './json-body';
import { scanRefs } from './refs';
import { CH_COLON, CH_LBRACE, contentEnd, firstVisible, isSpace, sliceTrimEnd, type SourceText } from './source';

const HEADER_LINE = /^([A-Za-z0-9][A-Za-z0-9_-]*)[ \t]*:(.*)$/;

export function bodyLine(b: Block, line: string, i: number, first: number, c: number): void {
  const whole = b.pos.range(i, first, i, line.length);
  if (!b.requestLine) b.strayBeforeRequest = append(b.strayBeforeRequest, whole);
  else if (b.section === 'json' || b.section === 'message') jsonLine(b, line, i, first, c, whole);
  else if (b.section === 'subscribe') streamLine(b, line, i, first);
  else if (b.isWebSocket()) {
    const message = t(
      'A WebSocket request holds [subscribe] (one stream name a line) and [message] (a JSON message) sections: put this line under one.',
    );
    b.error(whole, message, 'ws-line');
  } else if (!headerLine(b, line, i, first, whole) && !paramLine(b, line, i, first, whole)) {
    const message = t(
      'Cannot read this line: write a parameter `name = value`, a section line such as [body], a header `Name: value` under the request line, or a comment starting with #.',
    );
    b.error(whole, message, 'unreadable-line');
  }
}

/** Under `[json]` one object (and nothing after it); under `[message]` one object per section. */
function jsonLine(b: Block, line: string, i: number, first: number, c: number, whole: Range): void {
  const taken =
    b.section === 'json'
      ? b.json !== undefined
      : // The current [message] is the last section; its object, if any, is the last message (constant time).
        (b.messages[b.messages.length - 1]?.range.startLine ?? -1) > b.sections[b.sections.length - 1]!.range.startLine;
  if (c === CH_LBRACE && !taken) return openJson(b, line, i, first, b.section === 'json' ? 'json' : 'message');
  const json = b.section === 'json';
  const message = !taken
    ? t('A [{0}] section holds one JSON object starting with `{`.', b.section!)
    : json
      ? t('Only comments may follow the JSON body; add a section line ([query]) for more parameters.')
      : t('Only comments may follow the JSON message; start another [message] section for another message.');
  b.error(whole, message, 'json-expected');
}

/** A stream name under `[subscribe]`, one a line (docs/format.md, WebSocket requests). */
function streamLine(b: Block, line: string, i: number, first: number): void {
  const end = contentEnd(line);
  b.streams = append(b.streams, b.pos.token(line.slice(first, end), i, first));
  scanRefs(b, line, i, first, end, b.refs);
}

function headerLine(b: Block, line: string, i: number, first: number, whole: Range): boolean {
  const eq = line.indexOf('=', first);
  const colon = line.indexOf(':', first);
  if (colon < 0 || (eq >= 0 && eq < colon)) return false;
  const match = HEADER_LINE.exec(line.slice(first));
  if (!match) return false;
  if (b.headersClosed) {
    const message = t('Headers go directly under the request line, before the parameters: move this line up.');
    b.error(whole, message, 'misplaced-header');
    return true;
  }
  let v = first + match[1]!.length;
  while (line.charCodeAt(v) !== CH_COLON) v++;
  v = firstVisible(line, v + 1);
  const header = {
    name: b.pos.token(match[1]!, i, first),
    value: b.pos.token(sliceTrimEnd(line, v), i, v),
    range: whole,
  };
  b.headers = append(b.headers, header);
  scanRefs(b, line, i, v, line.length, b.refs);
  return true;
}

function paramLine(b: Block, line: string, i: number, first: number, whole: Range): boolean {
  const eq = line.indexOf('=', first);
  if (eq < 0) return false;
  let nameEnd = eq;
  while (nameEnd > first && isSpace(line.charCodeAt(nameEnd - 1))) nameEnd--;
  if (nameEnd === first) {
    b.error(whole, t('A parameter needs a name: write `name = value`.'), 'missing-name');
    return true;
  }
  const v = firstVisible(line, eq + 1);
  const valueEnd = contentEnd(line, v);
  const placement: Placement = b.section === 'query' || b.section === 'body' ? b.section : b.defaultPlacement;
  b.params.push(
    new LineParam(b, placement, b.section ? 'section' : 'default', i, first, nameEnd, v, valueEnd, line.length),
  );
  b.headersClosed = true;
  scanRefs(b, line, i, first, line.length, b.refs);
  return true;
}

/**
 * A `name = value` line. It keeps the line and offsets; its tokens, texts and range are made
 * when first asked for, so a large file costs few allocations (most are never asked).
 */
class LineParam implements Param {
  private nameToken?: Token;
  private valueToken?: Token;
  private readonly source: SourceText;
  private readonly pos: Block['pos'];
  constructor(
    b: Block,
    readonly placement: Placement,
    readonly origin: 'section' | 'default',
    private readonly line: number,
    private readonly start: number,
    private readonly nameEnd: number,
    private readonly valueStart: number,
    private readonly valueEnd: number,
    private readonly lineEnd: number,
  ) {
    this.source = b.source;
    this.pos = b.pos;
  }
  private slice(from: number, to: number): string {
    const offset = this.source.starts[this.line]!;
    return this.source.text.slice(offset + from, offset + to);
  }
  get name(): Token {
    return (this.nameToken ??= this.pos.token(this.slice(this.start, this.nameEnd), this.line, this.start));
  }
  get value(): Token {
    return (this.valueToken ??= this.pos.token(this.slice(this.valueStart, this.valueEnd), this.line, this.valueStart));
  }
  get range(): Range {
    return this.pos.range(this.line, this.start, this.line, this.lineEnd);
  }
  toJSON(): object {
    return { name: this.name, value: this.value, placement: this.placement, origin: this.origin, range: this.range };
  }
}
