/**
 * The messages of the core's diagnostics go through t() (issue 23): every message a diagnostic
 * carries, from the parser, directives, `# @expect`, variables, resolve, the check step and the
 * data files, is a `t('English {0}', value)` call or is made only from such calls. The TypeScript
 * compiler's checker follows each message back to where it is made; a message of any other
 * making (a template literal, a plain string, `t()` of a variable) is reported with its place.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { checkDocument } from '../../../src/core/check/check';
import { BUILTIN_SANDBOX } from '../../../src/core/env/constants';
import { parse } from '../../../src/core/format/parser';
import { setL10nBundle } from '../../../src/core/l10n';
import { placeholders, zhCnBundle } from '../../support/l10n';

const ROOT = join(__dirname, '..', '..', '..');

/** Where diagnostics are made: the check step and the format, and the few files beyond them that word one. */
const SCANNED = [
  'src/core/check',
  'src/core/format',
  'src/core/catalog/stream-names.ts',
  'src/core/testing/data.ts',
  'src/core/ws/resolved-request.ts',
];

function scannedFiles(): string[] {
  const files: string[] = [];
  const walk = (path: string): void => {
    if (path.endsWith('.ts')) files.push(path);
    else
      for (const e of readdirSync(path, { withFileTypes: true }))
        if (e.isDirectory() || e.name.endsWith('.ts')) walk(join(path, e.name));
  };
  for (const p of SCANNED) walk(join(ROOT, p));
  return files;
}

interface Problem {
  readonly where: string;
  readonly text: string;
}

interface Analysis {
  readonly problems: Problem[];
  /** The message expressions followed, for a check that the analysis saw the messages at all. */
  readonly followed: number;
  /** The English literals of the t() calls met on the way. */
  readonly literals: Set<string>;
  /** Those and the literals of every other t() call of the scanned files (the parts a message is made of). */
  readonly allLiterals: Set<string>;
}

/** The program of the scanned files, with `plants` replacing the text of some of them (path → text). */
function program(files: readonly string[], plants: ReadonlyMap<string, string> = new Map()): ts.Program {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
    esModuleInterop: true,
    resolveJsonModule: true,
  };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  host.readFile = (name) => plants.get(ts.sys.resolvePath(name)) ?? read(name);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) => {
    const planted = plants.get(ts.sys.resolvePath(name));
    return planted !== undefined
      ? ts.createSourceFile(name, planted, language)
      : getSourceFile(name, language, ...rest);
  };
  return ts.createProgram(files, options, host);
}

type FunctionNode = ts.FunctionLikeDeclaration;

/** Follows the messages of the scanned files back to where they are made. */
class MessageAnalysis {
  private readonly checker: ts.TypeChecker;
  private readonly scanned: ts.SourceFile[];
  /** Functions whose parameter at an index is a message: each call's argument there is followed. */
  private readonly reporters = new Map<ts.Node, Set<number>>();
  private readonly verdicts = new Map<ts.Node, boolean>();
  private readonly functionVerdicts = new Map<ts.Node, boolean>();
  private readonly problems: Problem[] = [];
  private readonly literals = new Set<string>();
  private readonly allLiterals = new Set<string>();
  private followed = 0;

  constructor(
    private readonly prog: ts.Program,
    files: readonly string[],
  ) {
    this.checker = prog.getTypeChecker();
    const wanted = new Set(files.map((f) => ts.sys.resolvePath(f)));
    this.scanned = prog.getSourceFiles().filter((f) => wanted.has(ts.sys.resolvePath(f.fileName)));
  }

  run(): Analysis {
    for (const file of this.scanned) this.visit(file, (node) => this.seed(node));
    // Calls of the functions that take a message, until no new such function turns up.
    for (let known = -1; known !== this.reporterCount();) {
      known = this.reporterCount();
      for (const file of this.scanned) this.visit(file, (node) => this.reporterCall(node));
    }
    for (const m of this.literals) this.allLiterals.add(m);
    return { problems: this.problems, followed: this.followed, literals: this.literals, allLiterals: this.allLiterals };
  }

  private reporterCount(): number {
    let n = 0;
    for (const s of this.reporters.values()) n += s.size;
    return n;
  }

  private visit(node: ts.Node, f: (node: ts.Node) => void): void {
    f(node);
    ts.forEachChild(node, (child) => this.visit(child, f));
  }

  /** A diagnostic's or problem's `message`, a quick fix's title, the text of `err()`, an argument named `message`. */
  private seed(node: ts.Node): void {
    if (ts.isPropertyAssignment(node) && propertyName(node) === 'message' && this.isText(node.initializer))
      this.expect(node.initializer);
    if (ts.isShorthandPropertyAssignment(node) && node.name.text === 'message') this.expect(node.name);
    if (ts.isObjectLiteralExpression(node)) {
      const title = node.properties.find((p) => propertyName(p) === 'title');
      const replacement = node.properties.some((p) => propertyName(p) === 'replacement');
      if (title && replacement && ts.isPropertyAssignment(title)) this.expect(title.initializer);
    }
    if (ts.isCallExpression(node) && this.isCoreFunction(node.expression, 'src/core/result.ts', 'err')) {
      const arg = node.arguments[0];
      if (arg && this.isText(arg)) this.expect(arg);
    }
    const isT = ts.isCallExpression(node) && this.isCoreFunction(node.expression, 'src/core/l10n.ts', 't');
    const first = isT ? node.arguments[0] : undefined;
    if (first && ts.isStringLiteral(first)) this.allLiterals.add(first.text);
    if ((ts.isCallExpression(node) && !isT) || ts.isNewExpression(node)) {
      const decl = this.declarationOf(node.expression);
      decl?.parameters.forEach((p, i) => {
        if (ts.isIdentifier(p.name) && p.name.text === 'message') this.addReporter(decl, i);
      });
    }
  }

  /** Whether `e` is text (a string, or a string or undefined), not a list or a record that happens to be named `message`. */
  private isText(e: ts.Expression): boolean {
    const type = this.checker.getTypeAtLocation(e);
    const parts = type.isUnion() ? type.types : [type];
    return parts.some((p) => (p.flags & ts.TypeFlags.StringLike) !== 0);
  }

  private reporterCall(node: ts.Node): void {
    if (!ts.isCallExpression(node) && !ts.isNewExpression(node)) return;
    const decl = this.declarationOf(node.expression);
    const indexes = decl && this.reporters.get(decl);
    if (!indexes) return;
    for (const i of indexes) {
      const arg = node.arguments?.[i];
      if (arg && !this.verdicts.has(arg)) this.expect(arg);
    }
  }

  private addReporter(decl: ts.Node, index: number): void {
    const set = this.reporters.get(decl) ?? new Set<number>();
    set.add(index);
    this.reporters.set(decl, set);
  }

  /** Records a problem when `e`, a message, is not made by t(). */
  private expect(e: ts.Expression): void {
    this.followed++;
    if (!this.translated(e)) {
      const file = e.getSourceFile();
      const { line } = file.getLineAndCharacterOfPosition(e.getStart());
      const where = `${relative(ROOT, file.fileName).split(sep).join('/')}:${line + 1}`;
      this.problems.push({ where, text: e.getText().slice(0, 160) });
    }
  }

  /** Whether `e` is made only of t() calls (memoised; a cycle is assumed fine while it is followed). */
  private translated(e: ts.Expression): boolean {
    const known = this.verdicts.get(e);
    if (known !== undefined) return known;
    this.verdicts.set(e, true);
    const verdict = this.judge(e);
    this.verdicts.set(e, verdict);
    return verdict;
  }

  private judge(e: ts.Expression): boolean {
    if (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isNonNullExpression(e))
      return this.translated(e.expression);
    if (ts.isConditionalExpression(e)) return this.translated(e.whenTrue) && this.translated(e.whenFalse);
    if (ts.isIdentifier(e) && e.text === 'undefined') return true;
    // An object or a function stands for what it holds: its `message` is a seed of its own, its returns are followed.
    if (ts.isObjectLiteralExpression(e)) return true;
    if (ts.isArrowFunction(e) || ts.isFunctionExpression(e)) return this.returnsTranslated(e);
    if (ts.isCallExpression(e)) return this.call(e);
    if (ts.isIdentifier(e) || ts.isShorthandPropertyAssignment(e.parent)) return this.identifier(e as ts.Identifier);
    if (ts.isPropertyAccessExpression(e)) return this.property(e);
    return false;
  }

  private call(e: ts.CallExpression): boolean {
    if (this.isCoreFunction(e.expression, 'src/core/l10n.ts', 't')) {
      const first = e.arguments[0];
      if (!first || !ts.isStringLiteral(first)) return false;
      this.literals.add(first.text);
      return e.arguments.slice(1).every((value) => !this.isProse(value));
    }
    const decl = this.declarationOf(e.expression);
    if (decl) return this.returnsTranslated(decl);
    // A parameter or a property of a function type: what is passed for it, or every function of its type.
    const target = this.symbolOf(e.expression)?.valueDeclaration;
    if (target && ts.isParameter(target)) return this.parameter(target);
    const implementations = this.implementationsOf(this.checker.getTypeAtLocation(e.expression));
    return implementations.length > 0 && implementations.every((f) => this.returnsTranslated(f));
  }

  /** English words written into a value of t() (a sentence that escapes translation), as written or in a constant. */
  private isProse(value: ts.Expression): boolean {
    let e = value;
    if (ts.isIdentifier(e)) {
      const decl = this.symbolOf(e)?.valueDeclaration;
      if (!decl || !ts.isVariableDeclaration(decl) || !decl.initializer) return false;
      e = decl.initializer;
    }
    const text =
      ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)
        ? e.text
        : ts.isTemplateExpression(e)
          ? [e.head.text, ...e.templateSpans.map((s) => s.literal.text)].join('\u0000')
          : '';
    return /[A-Za-z]{2,} [A-Za-z]{2,}/.test(text);
  }

  private identifier(e: ts.Identifier): boolean {
    const symbol = ts.isShorthandPropertyAssignment(e.parent)
      ? this.checker.getShorthandAssignmentValueSymbol(e.parent)
      : this.symbolOf(e);
    const decl = symbol?.valueDeclaration;
    if (!decl) return false;
    if (ts.isParameter(decl)) return this.parameter(decl);
    if (ts.isVariableDeclaration(decl) && decl.initializer) {
      const constant = (ts.getCombinedNodeFlags(decl) & ts.NodeFlags.Const) !== 0;
      return constant && this.translated(decl.initializer);
    }
    return ts.isFunctionDeclaration(decl) && this.returnsTranslated(decl);
  }

  /** `x.message`, `r.error`: a field of the core's own shapes, whose making is followed where it is made. */
  private property(e: ts.PropertyAccessExpression): boolean {
    if (e.name.text !== 'message' && e.name.text !== 'error') return false;
    const decl = this.symbolOf(e.name)?.declarations?.[0];
    const file = decl && relative(ROOT, decl.getSourceFile().fileName).split(sep).join('/');
    return file !== undefined && file.startsWith('src/core/');
  }

  private parameter(p: ts.ParameterDeclaration): boolean {
    const f = p.parent;
    this.addReporter(f, f.parameters.indexOf(p));
    return true;
  }

  private returnsTranslated(f: FunctionNode): boolean {
    const known = this.functionVerdicts.get(f);
    if (known !== undefined) return known;
    this.functionVerdicts.set(f, true);
    const body = f.body;
    let verdict = body !== undefined;
    if (body && !ts.isBlock(body)) verdict = this.translated(body);
    else if (body) {
      const returns: ts.Expression[] = [];
      const collect = (n: ts.Node): void => {
        if (ts.isReturnStatement(n) && n.expression) returns.push(n.expression);
        if (!ts.isFunctionLike(n)) ts.forEachChild(n, collect);
      };
      ts.forEachChild(body, collect);
      verdict = returns.every((r) => this.translated(r));
    }
    this.functionVerdicts.set(f, verdict);
    return verdict;
  }

  /** The functions of the scanned files given where a value of `type` is expected (`apply` of a directive). */
  private implementationsOf(type: ts.Type): FunctionNode[] {
    const found: FunctionNode[] = [];
    for (const file of this.scanned)
      this.visit(file, (n) => {
        if ((ts.isArrowFunction(n) || ts.isFunctionExpression(n)) && this.checker.getContextualType(n) === type)
          found.push(n);
      });
    return found;
  }

  private symbolOf(e: ts.Node): ts.Symbol | undefined {
    const s = this.checker.getSymbolAtLocation(e);
    return s && s.flags & ts.SymbolFlags.Alias ? this.checker.getAliasedSymbol(s) : s;
  }

  /** The function, method, constructor or function-valued constant `callee` names, when it has a body in src/. */
  private declarationOf(callee: ts.Expression): FunctionNode | undefined {
    let decl: ts.Node | undefined = this.symbolOf(callee)?.valueDeclaration;
    if (decl && ts.isClassDeclaration(decl)) decl = decl.members.find(ts.isConstructorDeclaration) ?? decl;
    if (decl && ts.isVariableDeclaration(decl) && decl.initializer) decl = decl.initializer;
    if (!decl || !hasBody(decl)) return undefined;
    return relative(ROOT, decl.getSourceFile().fileName).startsWith('src') ? decl : undefined;
  }

  private isCoreFunction(callee: ts.Expression, file: string, name: string): boolean {
    const decl = this.symbolOf(callee)?.valueDeclaration;
    if (!decl || !ts.isFunctionDeclaration(decl) || decl.name?.text !== name) return false;
    return relative(ROOT, decl.getSourceFile().fileName).split(sep).join('/') === file;
  }
}

function hasBody(n: ts.Node): n is FunctionNode {
  return ts.isFunctionLike(n) && 'body' in n && n.body !== undefined;
}

function propertyName(p: ts.ObjectLiteralElementLike): string | undefined {
  return p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : undefined;
}

function analyse(plants: ReadonlyMap<string, string> = new Map()): Analysis {
  const files = scannedFiles();
  return new MessageAnalysis(program(files, plants), files).run();
}

/** `file` with `from` replaced by `to`; `from` must be there, so a plant that no longer fits fails loudly. */
function plant(plants: Map<string, string>, file: string, from: string, to: string): void {
  const path = ts.sys.resolvePath(join(ROOT, file));
  const text = plants.get(path) ?? readFileSync(path, 'utf8');
  assert.ok(text.includes(from), `${file} no longer holds ${from}`);
  plants.set(path, text.replace(from, to));
}

describe('l10n: the messages of the core diagnostics', function () {
  this.timeout(120_000);
  let analysis: Analysis;
  before(() => {
    analysis = analyse();
  });
  afterEach(() => setL10nBundle(undefined));

  it('every message a diagnostic carries is made by t() with an English literal', () => {
    assert.deepEqual(analysis.problems, []);
    // The analysis followed the messages of every rule, not a handful.
    assert.ok(analysis.followed > 150, `followed ${analysis.followed} messages`);
    assert.ok(analysis.literals.size > 150, `met ${analysis.literals.size} literals`);
  });

  it('catches a message that bypasses t(): a template literal, a plain string, a function that words its own, t() of a variable, a sentence passed as a value', () => {
    const plants = new Map<string, string>();
    plant(
      plants,
      'src/core/check/required.ts',
      `t('{0} needs "{1}" (the service answers {2}).', name, p.name, answer(44444))`,
      '`${name} needs "${p.name}"`',
    );
    plant(
      plants,
      'src/core/format/parse/section.ts',
      `t('A request has one JSON body: remove the second [json] section.')`,
      `'A request has one JSON body: remove the second [json] section.'`,
    );
    plant(
      plants,
      'src/core/format/variables.ts',
      `return t('{{{0}}} goes through more than {1} variables: write its value more directly', name, BOUNDS.variableDepth);`,
      'return `{{${name}}} goes through more than ${BOUNDS.variableDepth} variables`;',
    );
    plant(
      plants,
      'src/core/check/ws-rules.ts',
      `t('{0} The service refuses the subscription.', problem.message)`,
      't(problem.message)',
    );
    plant(
      plants,
      'src/core/check/ws-rules.ts',
      `t('{0} Send at most {1} [message] sections.', said, room)`,
      "t('{0} {1}', said, `Send at most ${room} [message] sections.`)",
    );
    const where = analyse(plants).problems.map((p) => p.where.replace(/:\d+$/, ''));
    assert.deepEqual(where.sort(), [
      'src/core/check/required.ts',
      'src/core/check/ws-rules.ts',
      'src/core/check/ws-rules.ts',
      'src/core/format/parse/section.ts',
      'src/core/format/variables.ts',
    ]);
  });

  it('the zh-cn bundle translates every one of these messages, keeping each {N} placeholder', () => {
    const bundle = zhCnBundle();
    const missing = [...analysis.allLiterals].filter((m) => typeof bundle[m] !== 'string');
    assert.deepEqual(missing, []);
    for (const m of analysis.allLiterals) assert.deepEqual(placeholders(bundle[m]!), placeholders(m), m);
  });

  it('with a zh-cn bundle set, a file with a known problem gets its message in Chinese; English without one', () => {
    const text = 'POST /api/v3/order\nsymbol = btcusdt\nside = BUY\ntype = MARKET\nquantity = 1\n';
    const english = 'Symbol "{0}" must be upper-case letters (spec §2.1), e.g. {1} (the service answers {2}).';
    const first = (): string | undefined =>
      checkDocument(parse(text), { environment: BUILTIN_SANDBOX }).find((d) => d.rule === 'symbol-case')?.message;
    assert.equal(
      first(),
      'Symbol "btcusdt" must be upper-case letters (spec §2.1), e.g. BTCUSDT (the service answers 10007: Bad symbol).',
    );
    setL10nBundle({ [english]: '交易对 "{0}" 必须由大写字母组成（规范 §2.1），例如 {1}（服务会返回 {2}）。' });
    assert.equal(
      first(),
      '交易对 "btcusdt" 必须由大写字母组成（规范 §2.1），例如 BTCUSDT（服务会返回 10007: Bad symbol）。',
    );
  });
});
