/**
 * Positions in a block. A block's lines are numbered as in the text it was parsed from; its anchor
 * moves them to where they are in the document now. When an edit above a block adds or removes
 * lines, the block is kept and only its anchor moves (an incremental re-parse shifts, not rebuilds).
 */
import type { Range, Token } from '../model';

/** A single-line token that is its own range: one object per token keeps large files cheap to parse. */
class AnchoredToken implements Token, Range {
  constructor(
    readonly text: string,
    private readonly line: number,
    readonly startChar: number,
    private readonly anchor: Positions,
  ) {}
  get startLine(): number {
    return this.line + this.anchor.delta;
  }
  get endLine(): number {
    return this.line + this.anchor.delta;
  }
  get endChar(): number {
    return this.startChar + this.text.length;
  }
  get range(): Range {
    return this;
  }
  toJSON(): Token {
    return { text: this.text, range: plainRange(this) };
  }
}

class AnchoredRange implements Range {
  constructor(
    private readonly start: number,
    readonly startChar: number,
    private readonly end: number,
    readonly endChar: number,
    private readonly anchor: Positions,
  ) {}
  get startLine(): number {
    return this.start + this.anchor.delta;
  }
  get endLine(): number {
    return this.end + this.anchor.delta;
  }
  toJSON(): Range {
    return plainRange(this);
  }
}

function plainRange(r: Range): Range {
  return { startLine: r.startLine, startChar: r.startChar, endLine: r.endLine, endChar: r.endChar };
}

/**
 * A block's anchor: makes its tokens and ranges, which all read `delta` to know where they are.
 * Moving a block is setting `delta`.
 */
export class Positions {
  constructor(public delta = 0) {}
  token(text: string, line: number, startChar: number): Token {
    return new AnchoredToken(text, line, startChar, this);
  }
  range(startLine: number, startChar: number, endLine: number, endChar: number): Range {
    return new AnchoredRange(startLine, startChar, endLine, endChar, this);
  }
}
