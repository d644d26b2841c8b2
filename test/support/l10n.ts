/**
 * The translations as the tests see them (issue 23): the keys the sources ask for (the literal first
 * argument of `vscode.l10n.t`, `l10n.t` and core/l10n.ts's `t`, and the string tables translated
 * where they are shown), the bundles, and the literals of the extension that reach the user without
 * the l10n layer. Read with the TypeScript compiler's parser: no type check, no build.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { CODE_LANGUAGES } from '../../src/core/codegen/program-model';
import type { L10nBundle } from '../../src/core/l10n';
import { shownDataTexts } from '../../src/core/editor/shown-texts';
import { STARTER_REQUESTS } from '../../src/core/env/starter';
import { ROOT } from './cli';

/** A translation bundle or an nls file: key → text. */
export type Messages = Readonly<Record<string, string>>;

/** Where keys come from: the code's calls, or a string table the code translates where it shows it. */
export interface KeySource {
  readonly name: string;
  keys(): readonly string[];
}

/**
 * Every source of keys of l10n/bundle.l10n.<locale>.json. Another string table shown through
 * `t(entry.text)` (the error catalog's, say) is one more entry here.
 */
export const KEY_SOURCES: readonly KeySource[] = [
  {
    name: 'the literal first argument of vscode.l10n.t, l10n.t and t (core/l10n.ts) in src/',
    keys: () =>
      sourceFiles('src')
        .flatMap((f) => l10nCalls(f, readFileSync(join(ROOT, f), 'utf8')))
        .flatMap((c) => (c.key === undefined ? [] : [c.key])),
  },
  {
    name: "the data tables' texts the editor and the panel show (core/editor/shown-texts.ts: the catalog's, directives', system variables')",
    keys: () => shownDataTexts(),
  },
  {
    name: "New Request File's pick: what each starter file shows (core/env/starter.ts)",
    keys: () => STARTER_REQUESTS.map((f) => f.shows),
  },
  {
    name: "Copy as Code's pick: the languages (core/codegen/program-model.ts)",
    keys: () => CODE_LANGUAGES.map((l) => l.label),
  },
];

/** The repository's `.ts` files under `dir` (repository-relative, `/`-separated), sorted. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

/** A JSON file of the repository as messages. */
export function readMessages(file: string): Messages {
  return JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Messages;
}

/** The `{N}` placeholders of a message, sorted: a translation must keep every one (in any order). */
export function placeholders(message: string): string[] {
  return [...new Set(message.match(/\{\d+\}/g) ?? [])].sort();
}

/** The Simplified Chinese bundle as VS Code hands it to the extension, for tests of what the editor shows. */
export function zhCnBundle(): L10nBundle {
  return readMessages('l10n/bundle.l10n.zh-cn.json');
}

/** A call of the l10n layer and its key; no key for core's `t(entry.text)` over a string table (a key source of its own). */
export interface L10nCall {
  readonly file: string;
  readonly line: number;
  readonly key?: string;
  /** Set when `vscode.l10n.t`'s first argument is not one string literal: its key must be readable as written. */
  readonly problem?: string;
}

/** Each text is parsed once for every test of a run. */
const parsed = new Map<string, ts.SourceFile>();

function parse(file: string, text: string): ts.SourceFile {
  const key = `${file}\n${text}`;
  let source = parsed.get(key);
  if (!source)
    parsed.set(key, (source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS)));
  return source;
}

const lineOf = (node: ts.Node): number => node.getSourceFile().getLineAndCharacterOfPosition(node.getStart()).line + 1;

/** The local names `t` of core/l10n.ts goes by in a file (`import { t } from '../core/l10n'`, or renamed). */
function translatorNames(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const s of source.statements) {
    if (!ts.isImportDeclaration(s) || !ts.isStringLiteral(s.moduleSpecifier)) continue;
    if (!/(^|\/)l10n$/.test(s.moduleSpecifier.text)) continue;
    const bindings = s.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings))
      for (const e of bindings.elements) if ((e.propertyName ?? e.name).text === 't') names.add(e.name.text);
  }
  return names;
}

/** Whether `call` translates: `vscode.l10n.t(…)`, `l10n.t(…)`, or core/l10n.ts's `t(…)` as the file imports it. */
function isL10nCall(call: ts.CallExpression, translators: Set<string>): boolean {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return translators.has(callee.text);
  return ts.isPropertyAccessExpression(callee) && /^(vscode\.)?l10n\.t$/.test(callee.getText());
}

/** Every call of the l10n layer in a source text. */
export function l10nCalls(file: string, text: string): L10nCall[] {
  const source = parse(file, text);
  const translators = translatorNames(source);
  const calls: L10nCall[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && isL10nCall(node, translators)) calls.push(callOf(file, node));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return calls;
}

function callOf(file: string, call: ts.CallExpression): L10nCall {
  const first = call.arguments[0];
  const line = lineOf(call);
  if (first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first)))
    return { file, line, key: first.text };
  // core's t() over a string table's entry is the documented exception (its texts are listed in KEY_SOURCES).
  const table = ts.isIdentifier(call.expression) && first !== undefined && !ts.isTemplateExpression(first);
  return table ? { file, line } : { file, line, problem: 'the key is not a string literal' };
}

/** A literal that carries words to the user without the l10n layer. */
export interface Bypass {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

/** Calls whose arguments the user reads, and which of them (all when undefined; the others are ids). */
const SINK_CALLS: Readonly<Record<string, readonly number[] | undefined>> = {
  showInformationMessage: undefined,
  showWarningMessage: undefined,
  showErrorMessage: undefined,
  showQuickPick: undefined,
  showInputBox: undefined,
  showOpenDialog: undefined,
  showSaveDialog: undefined,
  showWorkspaceFolderPick: undefined,
  setStatusBarMessage: [0],
  withProgress: [0],
  createWebviewPanel: [1],
  createTestController: [1],
  createRunProfile: [0],
  createTestItem: [1],
  appendOutput: [0],
  diff: [0], // vscode.TestMessage.diff(message, expected, actual)
};
/** `new vscode.X(…)` whose arguments the user reads, and which of them. */
const SINK_CONSTRUCTORS: Readonly<Record<string, readonly number[]>> = {
  TestMessage: [0],
  CodeLens: [1],
  CodeAction: [0],
  DocumentPasteEdit: [1],
  MarkdownString: [0],
  Diagnostic: [1],
  Hover: [0],
};
/** Properties the user reads, in an object literal or assigned (`item.tooltip = …`). */
const SINK_PROPERTIES = new Set([
  ...['title', 'tooltip', 'label', 'description', 'detail', 'placeHolder', 'prompt', 'openLabel', 'text'],
  ...['name', 'error', 'message'],
]);
const LOG_METHODS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'appendLine']);
const IGNORE = /\/\/\s*l10n-ignore:\s*\S/;

const calleeName = (e: ts.Expression): string | undefined =>
  ts.isIdentifier(e) ? e.text : ts.isPropertyAccessExpression(e) ? e.name.text : undefined;

/** A log line (the output channel's `log.info(…)`, `console.*`): English, as VS Code's own logs. */
function isLogCall(call: ts.CallExpression): boolean {
  const callee = call.expression;
  if (!ts.isPropertyAccessExpression(callee) || !LOG_METHODS.has(callee.name.text)) return false;
  return /(^|\.)log$|^console$/.test(callee.expression.getText());
}

/** The literal's text as it reads: a template's static parts, each value standing as one placeholder. */
function textOf(node: ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | ts.TemplateExpression): string {
  if (!ts.isTemplateExpression(node)) return node.text;
  return node.head.text + node.templateSpans.map((s) => `\u2060${s.literal.text}`).join('');
}

/**
 * Whether a text reads as words to a person: two words apart (`"no origin"`, `"$(play) Send"`), one
 * capitalised word (`"Remove"`, `"Response:"`); in what the user reads (`inSink`), any word but an id.
 */
export function readsAsText(raw: string, inSink: boolean): boolean {
  const text = raw.replace(/\$\([\w~-]+\)/g, ''); // codicons: `$(play)`
  if (!/[A-Za-z]{2,}/.test(text)) return false;
  if (/[A-Za-z]{2,}\S*\s+\S|\S\s+\S*[A-Za-z]{2,}/.test(text)) return true;
  if (/^\s*[A-Z][a-z]+[.:…?!]?\s*$/.test(text)) return true;
  // An id, a path or a glob: one token with code's punctuation (`tradereq.sendRequest`, `**/*.tradereq`),
  // or in camel case (`FileNotFound`, the product's name `TradeReq`).
  const token = text.trim();
  const id =
    /^[\w$~.*/@#=:-]*[.*/@#=:][\w$~.*/@#=:-]*$/.test(token) || /^[A-Za-z][a-z0-9]+([A-Z][a-z0-9]*)+$/.test(token);
  return inSink && !id;
}

type Literal = ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | ts.TemplateExpression;

const isLiteral = (n: ts.Node): n is Literal =>
  ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateExpression(n);

/** Expressions a literal's text goes through unchanged on its way to where it is used. */
function passesThrough(node: ts.Node, parent: ts.Node): boolean {
  if (ts.isParenthesizedExpression(parent) || ts.isArrayLiteralExpression(parent) || ts.isSpreadElement(parent))
    return true;
  if (ts.isTemplateSpan(parent) || ts.isTemplateExpression(parent) || ts.isAsExpression(parent)) return true;
  if (ts.isConditionalExpression(parent)) return node !== parent.condition;
  if (ts.isBinaryExpression(parent)) {
    const op = parent.operatorToken.kind;
    return (
      op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.PlusToken
    );
  }
  return ts.isPropertyAssignment(parent) ? node === parent.initializer : ts.isObjectLiteralExpression(parent);
}

/** Whether the argument `index` of `call` (a call or a `new`) is one the user reads. */
function sinkArgument(call: ts.CallExpression | ts.NewExpression, index: number): boolean {
  const name = calleeName(call.expression);
  if (name === undefined) return false;
  const table = ts.isNewExpression(call) ? SINK_CONSTRUCTORS : SINK_CALLS;
  if (!Object.hasOwn(table, name)) return false;
  const which = table[name];
  return which === undefined || which.includes(index);
}

const argumentsOf = (call: ts.CallExpression | ts.NewExpression): readonly ts.Expression[] => call.arguments ?? [];

/** Whether the user reads `literal` where it is used: a UI call's argument, a UI property, shown as is. */
function inSink(literal: Literal): boolean {
  let node: ts.Node = literal;
  for (let parent = node.parent; parent; node = parent, parent = node.parent) {
    if (ts.isPropertyAssignment(parent) && node === parent.initializer && ts.isIdentifier(parent.name))
      if (SINK_PROPERTIES.has(parent.name.text)) return true;
    if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken)
      return (
        node === parent.right &&
        ts.isPropertyAccessExpression(parent.left) &&
        SINK_PROPERTIES.has(parent.left.name.text)
      );
    if (ts.isCallExpression(parent) || ts.isNewExpression(parent))
      return sinkArgument(parent, argumentsOf(parent).indexOf(node as ts.Expression));
    if (!passesThrough(node, parent)) return false;
  }
  return false;
}

/**
 * The allowance, narrow on purpose: the key of an l10n call, anything inside a log call, module
 * names, types, comparisons and `case` labels (ids), an element access's key, and a literal whose
 * line (or the line above) says `// l10n-ignore: why`.
 */
function allowed(literal: Literal, translators: Set<string>, lines: readonly string[]): boolean {
  const line = literal.getSourceFile().getLineAndCharacterOfPosition(literal.getStart()).line;
  if (IGNORE.test(lines[line] ?? '') || (line > 0 && IGNORE.test(lines[line - 1] ?? ''))) return true;
  for (let node: ts.Node = literal, parent = node.parent; parent; node = parent, parent = node.parent) {
    if (ts.isCallExpression(parent)) {
      if (isL10nCall(parent, translators) && parent.arguments[0] === node) return true;
      if (isLogCall(parent) || calleeName(parent.expression) === 'require') return true;
    }
    if (ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent) || ts.isTypeNode(parent)) return true;
    if (ts.isCaseClause(parent) || (ts.isElementAccessExpression(parent) && parent.argumentExpression === node))
      return true;
    if (ts.isBinaryExpression(parent) && /^[!=]==?$/.test(parent.operatorToken.getText())) return true;
  }
  return false;
}

/** The literals of a source text that carry words to the user without the l10n layer. */
export function bypasses(file: string, text: string): Bypass[] {
  const source = parse(file, text);
  const translators = translatorNames(source);
  const lines = text.split(/\r?\n/);
  const found: Bypass[] = [];
  const visit = (node: ts.Node): void => {
    if (isLiteral(node)) {
      const words = textOf(node);
      if (readsAsText(words, inSink(node)) && !allowed(node, translators, lines))
        found.push({ file, line: lineOf(node), text: words.replaceAll('\u2060', '${…}') });
      // A template's spans are read as part of it; a literal inside a span is visited on its own.
      if (!ts.isTemplateExpression(node)) return;
      for (const span of node.templateSpans) visit(span.expression);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Manifest properties a person reads (command palette, settings, Extensions view, walkthroughs). */
const MANIFEST_TEXT = new Set([
  ...['title', 'shortTitle', 'category', 'description', 'markdownDescription', 'enumDescriptions'],
  ...['markdownEnumDescriptions', 'deprecationMessage', 'markdownDeprecationMessage', 'altText', 'contextualTitle'],
]);

/** The strings of package.json a person reads, by their path: the description, contributions and capabilities. */
export function manifestTexts(manifest: Record<string, unknown>): { path: string; text: string }[] {
  const found: { path: string; text: string }[] = [];
  const walk = (value: unknown, path: string, shown: boolean): void => {
    if (typeof value === 'string') {
      if (shown) found.push({ path, text: value });
    } else if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}[${i}]`, shown));
    else if (value !== null && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) walk(v, `${path}.${k}`, MANIFEST_TEXT.has(k));
  };
  walk(manifest['description'], 'description', true);
  walk(manifest['contributes'], 'contributes', false);
  walk(manifest['capabilities'], 'capabilities', false);
  return found;
}

/** Every `%key%` string anywhere in package.json. */
export function manifestKeys(manifest: unknown): string[] {
  const text = JSON.stringify(manifest);
  return [...text.matchAll(/"%([^"%]+)%"/g)].map((m) => m[1]!);
}
