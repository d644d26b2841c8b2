/** `{{name}}` references in a value: recorded with their ranges, read lazily. */
import { t } from '../../l10n';
import type { VariableRef } from '../model';
import type { Block } from './block-state';
import { isSpace, type SourceText } from './source';
import type { Positions } from './position';

class LineVariableRef implements VariableRef {
  private nameText?: string;
  constructor(
    private readonly source: SourceText,
    private readonly anchor: Positions,
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
  get range() {
    const line = this.line + this.anchor.delta;
    return { startLine: line, startChar: this.start, endLine: line, endChar: this.end };
  }
  get nameRange() {
    const line = this.line + this.anchor.delta;
    return { startLine: line, startChar: this.nameStart, endLine: line, endChar: this.nameEnd };
  }
  toJSON(): object {
    return { name: this.name, range: this.range, nameRange: this.nameRange };
  }
}

/** Records `{{name}}` references in `line[from, to)` into `out`. */
export function scanRefs(b: Block, line: string, lineNo: number, from: number, to: number, out: VariableRef[]): void {
  let p = line.indexOf('{{', from);
  while (p >= 0 && p < to) {
    const close = line.indexOf('}}', p + 2);
    if (close < 0 || close + 2 > to) {
      b.error(b.pos.range(lineNo, p, lineNo, to), t('Unclosed `{{`: write `{{name}}`.'), 'unclosed-variable');
      return;
    }
    let nameStart = p + 2;
    let nameEnd = close;
    while (nameStart < nameEnd && isSpace(line.charCodeAt(nameStart))) nameStart++;
    while (nameEnd > nameStart && isSpace(line.charCodeAt(nameEnd - 1))) nameEnd--;
    if (nameStart === nameEnd) {
      const message = t('Empty variable `{{}}`: write a variable name between the braces.');
      b.error(b.pos.range(lineNo, p, lineNo, close + 2), message, 'empty-variable');
    } else {
      out.push(new LineVariableRef(b.source, b.pos, lineNo, p, close + 2, nameStart, nameEnd));
    }
    p = line.indexOf('{{', close + 2);
  }
}
