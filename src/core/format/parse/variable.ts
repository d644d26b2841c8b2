/** `@name = value`: a file variable, at the top of the file only (docs/format.md, Variables). */
import { t } from '../../l10n';
import type { FileVariable, VariableRef } from '../model';
import { append, NONE, type Block } from './block-state';
import { scanRefs } from './refs';
import { firstVisible, sliceTrimEnd } from './source';

const VARIABLE_NAME = /^[A-Za-z_$][\w.$-]*$/;

export function fileVariable(b: Block, line: string, i: number, first: number): void {
  const eq = line.indexOf('=', first);
  const rawName = (eq < 0 ? line.slice(first + 1) : line.slice(first + 1, eq)).trim();
  const whole = b.pos.range(i, first, i, line.length);
  if (eq < 0 || !VARIABLE_NAME.test(rawName)) {
    const message = t('A file variable is written `@name = value` (name: letters, digits, `_`, `-`, `.`).');
    return b.error(whole, message, 'bad-variable');
  }
  if (b.requestLine || b.sawRequestStart) {
    const message = t(
      'File variables stand at the top of the file, before the first `###` or request line: move this line up.',
    );
    return b.error(whole, message, 'misplaced-variable');
  }
  const v = firstVisible(line, eq + 1);
  const variable: FileVariable = {
    name: b.pos.token(rawName, i, line.indexOf(rawName, first + 1)),
    value: b.pos.token(sliceTrimEnd(line, v), i, v),
    range: whole,
  };
  const byName = (b.variablesByName ??= new Map<string, FileVariable>());
  const previous = byName.get(rawName);
  if (previous) {
    const message = t(
      '"{0}" is already defined on line {1}; the later definition is used.',
      rawName,
      previous.range.startLine + 1,
    );
    b.error(variable.name.range, message, 'duplicate-variable', 'warning');
  }
  b.variables = append(b.variables, variable);
  byName.set(rawName, variable);
  if ((b.variableRefs as readonly VariableRef[]) === NONE) b.variableRefs = [];
  scanRefs(b, line, i, v, line.length, b.variableRefs);
}
