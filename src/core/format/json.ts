/**
 * The `[json]` body: validated in one strict pass (RFC 8259, plus `{{variables}}` where a value or
 * string content may stand) that also yields the top-level members with ranges, so checks and
 * completion treat JSON parameters like `name = value` lines.
 */
import { BOUNDS } from '../bounds';
import { t } from '../l10n';
import type { Diagnostic, JsonBody, Param, Range, Token } from './model';

class JsonError extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

/** The scanner recurses: a body nested past the one depth TradeReq reads JSON to is refused. */
const MAX_DEPTH = BOUNDS.prettyJsonDepth;

// What `expect` says is missing, made only when it is (the scanner expects on every member).
const EXPECTED_IN_ARRAY = (): string => t('expected , or ] in the array');
const EXPECTED_COLON = (): string => t('expected : after the member name');
const EXPECTED_IN_OBJECT = (): string => t('expected , or } in the object');

/** Recursive-descent scanner over the body text; offsets are into `text`. */
class Scanner {
  pos = 0;
  readonly members: { keyStart: number; keyEnd: number; valueStart: number; valueEnd: number; quoted: boolean }[] = [];

  constructor(private readonly text: string) {}

  run(): void {
    this.ws();
    if (this.text.charCodeAt(this.pos) !== 123)
      throw new JsonError(this.pos, t('the body must be one JSON object starting with {'));
    this.value(0);
    this.ws();
    if (this.pos < this.text.length) throw new JsonError(this.pos, t('unexpected text after the JSON object'));
  }

  private ws(): void {
    const text = this.text;
    while (this.pos < text.length) {
      const c = text.charCodeAt(this.pos);
      if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return;
      this.pos++;
    }
  }

  private expect(c: number, missing: () => string): void {
    if (this.text.charCodeAt(this.pos) !== c) throw new JsonError(this.pos, missing());
    this.pos++;
  }

  /** `{{name}}` at the current position, if one starts here. */
  private variable(): boolean {
    const text = this.text;
    if (text.charCodeAt(this.pos) !== 123 || text.charCodeAt(this.pos + 1) !== 123) return false;
    const close = text.indexOf('}}', this.pos + 2);
    const newline = text.indexOf('\n', this.pos);
    if (close < 0 || (newline >= 0 && newline < close)) throw new JsonError(this.pos, t('unclosed {{'));
    this.pos = close + 2;
    return true;
  }

  private value(depth: number): void {
    if (depth > MAX_DEPTH) throw new JsonError(this.pos, t('nested too deeply'));
    const text = this.text;
    const c = text.charCodeAt(this.pos);
    if (c === 123) {
      if (this.variable()) return;
      this.object(depth + 1);
    } else if (c === 91) {
      this.pos++;
      this.ws();
      if (text.charCodeAt(this.pos) === 93) {
        this.pos++;
        return;
      }
      for (;;) {
        this.ws();
        this.value(depth + 1);
        this.ws();
        if (text.charCodeAt(this.pos) === 44) {
          this.pos++;
          continue;
        }
        this.expect(93, EXPECTED_IN_ARRAY);
        return;
      }
    } else if (c === 34) {
      this.string();
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      this.number();
    } else if (text.startsWith('true', this.pos)) {
      this.pos += 4;
    } else if (text.startsWith('false', this.pos)) {
      this.pos += 5;
    } else if (text.startsWith('null', this.pos)) {
      this.pos += 4;
    } else {
      throw new JsonError(
        this.pos,
        this.pos >= text.length
          ? t('the JSON object ends too early')
          : t('expected a value (string, number, object, array, true, false, null or {{variable}})'),
      );
    }
  }

  private object(depth: number): void {
    const text = this.text;
    this.pos++;
    this.ws();
    if (text.charCodeAt(this.pos) === 125) {
      this.pos++;
      return;
    }
    for (;;) {
      this.ws();
      if (text.charCodeAt(this.pos) !== 34) throw new JsonError(this.pos, t('expected a member name in double quotes'));
      const keyStart = this.pos;
      this.string();
      const keyEnd = this.pos;
      this.ws();
      this.expect(58, EXPECTED_COLON);
      this.ws();
      const valueStart = this.pos;
      this.value(depth);
      if (depth === 1)
        this.members.push({
          keyStart,
          keyEnd,
          valueStart,
          valueEnd: this.pos,
          quoted: text.charCodeAt(valueStart) === 34,
        });
      this.ws();
      if (text.charCodeAt(this.pos) === 44) {
        this.pos++;
        continue;
      }
      this.expect(125, EXPECTED_IN_OBJECT);
      return;
    }
  }

  private string(): void {
    const text = this.text;
    this.pos++;
    while (this.pos < text.length) {
      const c = text.charCodeAt(this.pos);
      if (c === 34) {
        this.pos++;
        return;
      }
      if (c === 92) {
        const e = text.charCodeAt(this.pos + 1);
        if (e === 117) {
          if (!/^[0-9A-Fa-f]{4}$/.test(text.slice(this.pos + 2, this.pos + 6)))
            throw new JsonError(this.pos, t('\\u needs four hexadecimal digits'));
          this.pos += 6;
        } else if (e === 34 || e === 92 || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116) {
          this.pos += 2;
        } else {
          throw new JsonError(this.pos, t('invalid escape in a string'));
        }
      } else if (c < 32) {
        throw new JsonError(
          this.pos,
          c === 10 ? t('a string cannot span lines: close it with "') : t('control character in a string'),
        );
      } else {
        this.pos++;
      }
    }
    throw new JsonError(this.pos, t('unterminated string'));
  }

  private number(): void {
    const text = this.text;
    const start = this.pos;
    if (text.charCodeAt(this.pos) === 45) this.pos++;
    if (text.charCodeAt(this.pos) === 48) this.pos++;
    else if (!this.digits()) throw new JsonError(start, t('invalid number'));
    if (text.charCodeAt(this.pos) === 46) {
      this.pos++;
      if (!this.digits()) throw new JsonError(start, t('invalid number: digits must follow the decimal point'));
    }
    const e = text.charCodeAt(this.pos);
    if (e === 101 || e === 69) {
      this.pos++;
      const sign = text.charCodeAt(this.pos);
      if (sign === 43 || sign === 45) this.pos++;
      if (!this.digits()) throw new JsonError(start, t('invalid number exponent'));
    }
  }

  private digits(): boolean {
    const start = this.pos;
    while (this.pos < this.text.length) {
      const c = this.text.charCodeAt(this.pos);
      if (c < 48 || c > 57) break;
      this.pos++;
    }
    return this.pos > start;
  }
}

/** Makes tokens and ranges at lines of the body's block (the parser's Positions). */
export interface PositionMaker {
  token(text: string, line: number, startChar: number): Token;
  range(startLine: number, startChar: number, endLine: number, endChar: number): Range;
}

/** Maps offsets of the body text to document positions. */
class BodyPositions {
  private readonly lineStarts: number[];
  constructor(
    readonly text: string,
    private readonly startLine: number,
    private readonly startChar: number,
    private readonly pos: PositionMaker,
  ) {
    this.lineStarts = [0];
    for (let k = text.indexOf('\n'); k >= 0; k = text.indexOf('\n', k + 1)) this.lineStarts.push(k + 1);
  }
  private lineIndex(offset: number): number {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
  private char(offset: number, l: number): number {
    return offset - this.lineStarts[l]! + (l === 0 ? this.startChar : 0);
  }
  span(s: number, e: number): Range {
    const ls = this.lineIndex(s);
    const le = this.lineIndex(e);
    return this.pos.range(this.startLine + ls, this.char(s, ls), this.startLine + le, this.char(e, le));
  }
  token(s: number, e: number): Token {
    const l = this.lineIndex(s);
    if (this.lineIndex(e) === l) return this.pos.token(this.text.slice(s, e), this.startLine + l, this.char(s, l));
    return { text: this.text.slice(s, e), range: this.span(s, e) };
  }
}

/** A top-level member of a `[json]` body as a body parameter; tokens are made when first asked for. */
class JsonParam implements Param {
  readonly placement = 'body';
  readonly origin = 'json';
  private nameToken?: Token;
  private valueToken?: Token;
  constructor(
    private readonly positions: BodyPositions,
    private readonly keyStart: number,
    private readonly keyEnd: number,
    private readonly valueStart: number,
    private readonly valueEnd: number,
    readonly quoted: boolean,
  ) {}
  get name(): Token {
    return (this.nameToken ??= this.positions.token(this.keyStart + 1, this.keyEnd - 1));
  }
  get value(): Token {
    return (this.valueToken ??= this.quoted
      ? this.positions.token(this.valueStart + 1, this.valueEnd - 1)
      : this.positions.token(this.valueStart, this.valueEnd));
  }
  get range(): Range {
    return this.positions.span(this.keyStart, this.valueEnd);
  }
  toJSON(): object {
    return {
      name: this.name,
      value: this.value,
      placement: this.placement,
      origin: this.origin,
      range: this.range,
      quoted: this.quoted,
    };
  }
}

/**
 * Validates the body and returns its top-level members as body parameters. `line` is the body's
 * first line as `pos` numbers lines (the block's own numbering).
 */
export function jsonParams(
  json: JsonBody,
  line: number,
  pos: PositionMaker,
): { params: Param[]; diagnostics: Diagnostic[] } {
  const positions = new BodyPositions(json.text, line, json.range.startChar, pos);
  const scanner = new Scanner(json.text);
  const diagnostics: Diagnostic[] = [];
  try {
    scanner.run();
  } catch (e) {
    // An unclosed body is reported once, by the parser; other errors here.
    if (e instanceof JsonError && json.closed) {
      const offset = Math.min(e.offset, Math.max(0, json.text.length - 1));
      diagnostics.push({
        range: positions.span(offset, offset + 1),
        severity: 'error',
        message: t('The JSON body is not valid JSON: {0}.', e.message),
        rule: 'json-invalid',
      });
    } else if (!(e instanceof JsonError)) {
      throw e;
    }
  }
  const params = scanner.members.map(
    (m): Param => new JsonParam(positions, m.keyStart, m.keyEnd, m.valueStart, m.valueEnd, m.quoted),
  );
  return { params, diagnostics };
}
