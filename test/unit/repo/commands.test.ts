/**
 * The editor's commands: activation registers those package.json contributes (src/extension/extension.ts),
 * each running its handler from the COMMANDS table of src/extension/commands.ts, which loads with
 * dist/language.js on the first; so the two lists are the same, or a command would be missing
 * from the palette or fail when run.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '..', '..', '..');

/** The ids of the COMMANDS table, read from the source (it imports vscode, so it is not loaded here). */
function tableIds(): string[] {
  const file = join(ROOT, 'src', 'extension', 'commands.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const ids: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && node.name.getText() === 'COMMANDS' && node.initializer) {
      const table = node.initializer;
      assert.ok(ts.isObjectLiteralExpression(table), 'COMMANDS is an object literal');
      for (const p of table.properties) {
        assert.ok(ts.isPropertyAssignment(p) && ts.isStringLiteral(p.name), p.getText());
        ids.push(p.name.text);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return ids;
}

describe("the editor's commands: package.json's list and the table of commands.ts", () => {
  it('every command package.json contributes has its handler in the table, and the table holds no other', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      contributes: { commands: { command: string }[] };
    };
    const contributed = manifest.contributes.commands.map((c) => c.command);
    const table = tableIds();
    assert.ok(table.length > 20, `${table.length} commands in the table`);
    assert.deepEqual([...table].sort(), [...contributed].sort());
  });
});
