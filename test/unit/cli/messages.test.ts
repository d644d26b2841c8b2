/**
 * Every message the command line writes is in src/cli/messages.ts (issue 23: one place, so that a
 * later translation works from one file). The compiler's view of every other file of src/cli/:
 * a string or template literal that reads as prose (words and a space) is a message wherever it
 * is, and one with any word is a message where it becomes output (an argument of io.out/err, a
 * write, a push onto lines, paint, err(), a UsageError or Error, a message field). Ids, option
 * names and formats (`${a}: ${b}`) stay where they are. And messages.ts stays cheap for every
 * bundle: types only imported, nothing run at load, each entry used.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '..', '..', '..');
const CLI = join(ROOT, 'src', 'cli');
const MESSAGES = join(CLI, 'messages.ts');

/** Literals that read as prose but are not messages, each with its reason. */
const NOT_MESSAGES: readonly { readonly file: string; readonly starts: string; readonly why: string }[] = [
  { file: 'src/cli/code-cache.ts', starts: '(function (exports,', why: 'the CommonJS wrapper V8 compiles' },
  {
    file: 'src/cli/completion.ts',
    starts: 'tradereq ',
    why: "a pattern of a command's usage lines, read from its --help",
  },
];

/** Calls whose arguments are written out: the terminal's writers, the lines of a report, failures. */
const SINK_METHODS = new Set(['out', 'err', 'write', 'question', 'push']);
const SINK_FUNCTIONS = new Set(['paint', 'err']);
const SINK_CLASSES = new Set(['UsageError', 'Error']);
/** Fields whose value is shown to the user (a core type's message, a test case's label, a key's origins). */
const SINK_FIELDS = new Set(['message', 'summary', 'label', 'source', 'howToUpdate', 'onTerminal', 'tooLong', 'text']);

/** Operators whose result holds their operands' text: a + b, a ?? b, a || b (not a comparison). */
const TEXT_OPERATORS: ReadonlySet<ts.SyntaxKind> = new Set([
  ts.SyntaxKind.PlusToken,
  ts.SyntaxKind.QuestionQuestionToken,
  ts.SyntaxKind.BarBarToken,
]);

/** Prose: two letters in a row and a space. A word: two letters in a row. An option name: --pace=, -h. */
const PROSE = (text: string): boolean => /\p{L}{2}/u.test(text) && / /.test(text);
const WORD = (text: string): boolean => /\p{L}{2}/u.test(text);
const OPTION = /^--?[a-z][a-z-]*=?$/;

interface Found {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

function cliSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return cliSources(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

/** The text a literal writes, without its `${…}` parts. */
function staticText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.head.text + node.templateSpans.map((s) => s.literal.text).join('');
  return undefined;
}

/** A specifier, a type, a property's name, a case label: never output. */
function notAValue(node: ts.Node): boolean {
  const p = node.parent;
  if (ts.isImportDeclaration(p) || ts.isExportDeclaration(p) || ts.isLiteralTypeNode(p)) return true;
  if (ts.isCallExpression(p) && ts.isIdentifier(p.expression) && p.expression.text === 'require') return true;
  if ((ts.isPropertyAssignment(p) || ts.isPropertySignature(p)) && p.name === node) return true;
  return ts.isElementAccessExpression(p) && p.argumentExpression === node;
}

/** Names imported from ./messages in this file: calls of theirs carry their arguments into the output. */
function messageImports(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const s of source.statements) {
    if (!ts.isImportDeclaration(s) || !ts.isStringLiteral(s.moduleSpecifier)) continue;
    if (!/\/messages$/.test(s.moduleSpecifier.text)) continue;
    const bindings = s.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings)) for (const e of bindings.elements) names.add(e.name.text);
    if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
  }
  return names;
}

function rootName(e: ts.Expression): string | undefined {
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return rootName(e.expression);
  return undefined;
}

/** Whether `node`'s value is written out: it flows, through text operations only, into a sink. */
function reachesSink(node: ts.Node, messages: ReadonlySet<string>): boolean {
  let child = node;
  for (let p = node.parent; p !== undefined; child = p, p = p.parent) {
    if (ts.isCallExpression(p) && p.arguments.includes(child as ts.Expression)) {
      const callee = p.expression;
      if (ts.isPropertyAccessExpression(callee) && SINK_METHODS.has(callee.name.text)) return true;
      if (ts.isIdentifier(callee) && SINK_FUNCTIONS.has(callee.text)) return true;
      const root = rootName(callee);
      if (root !== undefined && messages.has(root)) continue;
      return false;
    }
    if (ts.isNewExpression(p)) return ts.isIdentifier(p.expression) && SINK_CLASSES.has(p.expression.text);
    if (ts.isPropertyAssignment(p)) return ts.isIdentifier(p.name) && SINK_FIELDS.has(p.name.text);
    if (ts.isConditionalExpression(p) && child === p.condition) return false;
    if (ts.isBinaryExpression(p)) {
      if (TEXT_OPERATORS.has(p.operatorToken.kind)) continue;
      return false;
    }
    const carries =
      ts.isParenthesizedExpression(p) ||
      ts.isConditionalExpression(p) ||
      ts.isTemplateSpan(p) ||
      ts.isTemplateExpression(p) ||
      ts.isArrayLiteralExpression(p) ||
      ts.isSpreadElement(p) ||
      ts.isAsExpression(p);
    if (!carries) return false;
  }
  return false;
}

/** The messages written in `text` (a file of src/cli/ other than messages.ts). */
function literalMessages(file: string, text: string): Found[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const messages = messageImports(source);
  const found: Found[] = [];
  const visit = (node: ts.Node): void => {
    const written = staticText(node);
    if (written !== undefined && !notAValue(node)) {
      const message = PROSE(written) || (WORD(written) && !OPTION.test(written) && reachesSink(node, messages));
      const allowed = NOT_MESSAGES.some((a) => a.file === file && written.startsWith(a.starts));
      if (message && !allowed) {
        const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        found.push({ file, line, text: written });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const posix = (p: string): string => p.split('\\').join('/');
const shown = (f: Found): string => `${f.file}:${f.line}: ${JSON.stringify(f.text)}`;

describe('the command line writes its messages from src/cli/messages.ts only', () => {
  it('no other file of src/cli/ writes a message of its own', () => {
    const found = cliSources(CLI)
      .filter((f) => f !== MESSAGES)
      .flatMap((f) => literalMessages(posix(relative(ROOT, f)), readFileSync(f, 'utf8')));
    assert.deepEqual(found.map(shown), [], 'move these into src/cli/messages.ts');
  });

  it('catches a planted message: prose anywhere, a word where it is written; ids, options and formats pass', () => {
    const planted = [
      "throw new UsageError('that file is gone');",
      'io.err(`tradereq: ${e.message}`);',
      "io.out(ok ? 'refused' : `${a}`);",
      "lines.push('', 'Next:');",
      "const note = { kind: 'usage', message: 'unreadable' };",
      "const why = 'nothing answered';",
      "process.stderr.write('\\r' + CLI.said('interrupted'));",
      'return err(`${path}: missing`);',
    ];
    const allowed = [
      "import { CLI } from './messages';",
      "const fs = require('node:fs');",
      "if (code === 'EADDRINUSE') stop('signal');",
      'out.push(`--pace=${value}`);',
      'io.out(`${file}:${line}: ${severity}: ${message}`);',
      "this.record({ type: 'error', kind: 'unexpected', message: text });",
      "specs.push({ name: 'pretty' });",
      "const options = { 'base-url': { type: 'string' } };",
      "readFileSync(path, 'utf8');",
      "type Style = 'bold' | 'dim';",
    ];
    const source = `import { CLI } from './messages';\n${planted.join('\n')}\n${allowed.join('\n')}\n`;
    const found = literalMessages('src/cli/planted.ts', source);
    assert.deepEqual(
      found.map((f) => f.line),
      planted.map((_, i) => i + 2),
      found.map(shown).join('\n'),
    );
  });
});

/** The groups of messages.ts and their entries. */
function messageGroups(source: ts.SourceFile): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const s of source.statements) {
    if (!ts.isVariableStatement(s)) continue;
    for (const d of s.declarationList.declarations) {
      if (!ts.isIdentifier(d.name) || !d.initializer || !ts.isObjectLiteralExpression(d.initializer)) continue;
      groups.set(
        d.name.text,
        d.initializer.properties.flatMap((p) => (p.name && ts.isIdentifier(p.name) ? [p.name.text] : [])),
      );
    }
  }
  return groups;
}

/** Whether an entry's value runs nothing when the module loads: a literal, or a function. */
function inert(value: ts.Expression): boolean {
  return (
    ts.isStringLiteral(value) ||
    ts.isNoSubstitutionTemplateLiteral(value) ||
    ts.isArrowFunction(value) ||
    ts.isFunctionExpression(value)
  );
}

describe('src/cli/messages.ts: one group per command, free for the bundles that do not use it', () => {
  const text = readFileSync(MESSAGES, 'utf8');
  const source = ts.createSourceFile(MESSAGES, text, ts.ScriptTarget.Latest, true);

  it('imports types only, and each entry is a text or a function of its values', () => {
    for (const s of source.statements) {
      if (ts.isImportDeclaration(s)) assert.equal(s.importClause?.isTypeOnly, true, s.getText(source));
      else assert.ok(ts.isVariableStatement(s), `only groups of messages: ${s.getText(source).slice(0, 80)}`);
    }
    for (const s of source.statements.filter(ts.isVariableStatement)) {
      for (const d of s.declarationList.declarations) {
        assert.ok(d.initializer && ts.isObjectLiteralExpression(d.initializer), `${d.name.getText(source)}: an object`);
        for (const p of d.initializer.properties) {
          assert.ok(ts.isPropertyAssignment(p) && inert(p.initializer), `${p.getText(source).slice(0, 80)}`);
        }
      }
    }
  });

  it('every entry is used by a file of src/cli/', () => {
    const uses = cliSources(CLI)
      .filter((f) => f !== MESSAGES)
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    const unused = [...messageGroups(source)].flatMap(([group, entries]) =>
      entries.filter((e) => !new RegExp(`\\b${group}\\.${e}\\b`).test(uses)).map((e) => `${group}.${e}`),
    );
    assert.deepEqual(unused, []);
  });
});
