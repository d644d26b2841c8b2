/**
 * The editor's help on `# @expect` lines (docs/format.md, Expectations): hover says what a line
 * checks, in words; completion offers the kinds after `@expect`, paths from the request's last
 * answer (json) or from the pushes of its streams under the environment's deployment (message),
 * and the operators each kind takes.
 */
import { BOUNDS, clip } from '../bounds';
import {
  EXPECT_KINDS,
  kindUsage,
  OPERATORS,
  hasWildcard,
  readExpectationLine,
  type Check,
  type Comparison,
  type ExpectKind,
  type ExpectationLine,
} from '../format/expectation';
import { readStreamName, type StreamCatalog, type StreamDescription } from '../catalog/stream-names';
import { credentialsIn } from '../format/credentials';
import { range, type Directive, type Range, type RequestBlock } from '../format/model';
import type { AnswerPath, CompletionEntry } from './completion-values';
import { t } from '../l10n';
import { escapeMarkdown, inlineCode } from './markdown';

/** "is less than 300": a comparison and the value it compares with, in words. */
function compared(op: Comparison, value: string | number): string {
  switch (op) {
    case '==':
      return t('is {0}', value);
    case '!=':
      return t('is not {0}', value);
    case '<':
      return t('is less than {0}', value);
    case '<=':
      return t('is at most {0}', value);
    case '>':
      return t('is greater than {0}', value);
    case '>=':
      return t('is at least {0}', value);
  }
}

/** What each operator checks of a value, in words (hover and completion share them). */
function operatorWords(op: string): string | undefined {
  switch (op) {
    case '==':
      return t('is VALUE: the same text, or the same decimal ("0.10000000" is 0.1)');
    case '!=':
      return t('is not VALUE (by the rule of ==)');
    case '<':
      return t('is a number less than N, compared exactly as decimals');
    case '<=':
      return t('is a number at most N, compared exactly as decimals');
    case '>':
      return t('is a number greater than N, compared exactly as decimals');
    case '>=':
      return t('is a number at least N, compared exactly as decimals');
    case 'contains':
      return t('is text that contains VALUE, or a list with an element VALUE');
    case 'startsWith':
      return t('is text that starts with VALUE');
    case 'matches':
      return t('matches the pattern /re/ (flags i, m, s), run by RE2 in linear time');
    case 'in':
      return t('is one of the values of [a, b, "c d"]');
    default:
      return typeWords(op);
  }
}

function typeWords(op: string): string | undefined {
  switch (op) {
    case 'exists':
      return t('exists (null counts)');
    case 'not exists':
      return t('is absent');
    case 'isString':
      return t('is text');
    case 'isNumber':
      return t('is a JSON number');
    case 'isDecimal':
      return t('is a decimal: a number, or text that writes one ("0.10000000")');
    case 'isBoolean':
      return t('is true or false');
    case 'isNull':
      return t('is null');
    case 'isArray':
      return t('is a list');
    case 'isObject':
      return t('is an object');
    case 'count':
      return t('is a list whose length passes the comparison (with *: how many values the path reaches)');
    default:
      return undefined;
  }
}

/** `# @expect json PATH isDecimal` → "Passes when every value at PATH is a decimal…", in Markdown. */
function describeExpectation(e: ExpectationLine): string {
  switch (e.kind) {
    case 'status':
      return t('Passes when the HTTP status {0}.', compared(e.check.op as Comparison, e.status));
    case 'code':
      return e.check.op === '=='
        ? t("Passes when the answer carries the service's error code {0} (§7.2).", e.code)
        : t(
            'Passes when the answer does not carry the error code {0}; an answer without an error code passes.',
            e.code,
          );
    case 'duration':
      return t(
        'Passes when the round trip (from sending the request to the whole answer) {0}.',
        compared(e.check.op as Comparison, `${e.ms} ms`),
      );
    case 'header':
      return t(
        'Passes when the response header {0} (in any case) {1}.',
        inlineCode(e.name),
        checkWords(e.check, false),
      );
    case 'json':
      return t('Passes when, in the JSON answer, {0}.', describePath(e));
    case 'message':
      return t('Passes when, in one push, {0}. Pushes are checked as they come.', describePath(e));
    case 'snapshot':
      return t(
        'Passes when the answer (status, error code, body), its volatile fields masked, equals its entry in `__snapshots__/FILE.snap.json` beside this file; compared by `tradereq test` and the Testing view, written by `--update-snapshots`.',
      );
  }
}

function describePath(e: Extract<ExpectationLine, { kind: 'json' | 'message' }>): string {
  const many = hasWildcard(e.steps);
  const p = inlineCode(e.path);
  const c = e.check;
  if (c.op === 'exists') return many ? t('{0} reaches a value', p) : t('{0} is present (null counts)', p);
  if (c.op === 'not exists') return many ? t('{0} reaches no value', p) : t('{0} is absent', p);
  if (c.op === 'count')
    return many
      ? t('the number of values {0} reaches {1}', p, compared(c.comparison, c.count.text))
      : t('the value at {0} is a list whose length {1}', p, compared(c.comparison, c.count.text));
  return many
    ? t('every value {0} reaches (each element at a `*`; one at least must exist) {1}', p, checkWords(c))
    : t('the value at {0} {1}', p, checkWords(c));
}

function checkWords(check: Check, lists = true): string {
  switch (check.op) {
    case 'matches':
      return t('matches {0} (RE2: linear time)', inlineCode(`/${check.pattern.source}/${check.pattern.flags}`));
    case 'in':
      return t('is one of {0}', check.values.map((v) => inlineCode(v.text)).join(', '));
    case 'contains':
      return lists
        ? t('contains {0} (as text, or as an element of a list)', inlineCode(check.value.text))
        : t('contains {0}', inlineCode(check.value.text));
    case 'startsWith':
      return t('starts with {0}', inlineCode(check.value.text));
    case '==':
    case '!=': {
      const words = compared(check.op, inlineCode(check.value.text));
      return check.value.decimal ? t('{0} (as text, or as the same decimal)', words) : words;
    }
    case '<':
    case '<=':
    case '>':
    case '>=':
      return t('{0} (compared exactly, as decimals)', compared(check.op, check.value.text));
    default:
      return operatorWords(check.op)!;
  }
}

/** The hover of an `# @expect` line's arguments: what it checks, or what is wrong with it. */
export function expectationHover(
  d: Directive,
  pushPaths: readonly PushPath[] = [],
): { markdown: string; range: Range } | undefined {
  const args = d.args;
  if (!args) return undefined;
  const line = readExpectationLine(args.text, args.range.startLine, args.range.startChar);
  if (!line.ok) return { markdown: `**@expect**: ${escapeMarkdown(line.error.message)}`, range: args.range };
  const said = `**@expect ${line.value.kind}**: ${describeExpectation(line.value)}`;
  const field = line.value.kind === 'message' ? pushPathOf(line.value.path, pushPaths) : undefined;
  const markdown = field ? `${said}\n\n${inlineCode(field.path)} (${field.type}): ${t(field.description)}` : said;
  return { markdown, range: args.range };
}

// ---------------------------------------------------------------------------------------------
// The paths of a push, for `# @expect message`

/** A path a `# @expect message` line can name in a push of the request's streams. */
export interface PushPath {
  readonly path: string;
  readonly type: string;
  readonly description: string;
}

const JSON_ENVELOPE: readonly PushPath[] = [
  { path: 'c', type: 'string', description: 'The stream name the push belongs to.' },
  { path: 's', type: 'string', description: 'The symbol (absent on account pushes).' },
  { path: 't', type: 'timestampMs', description: 'When the push was made.' },
];
const BINARY_ENVELOPE: readonly PushPath[] = [
  { path: 'channel', type: 'string', description: 'The stream name the push belongs to.' },
  { path: 'symbol', type: 'string', description: 'The symbol (absent on account pushes).' },
  { path: 'symbolId', type: 'string', description: "The symbol's id." },
  { path: 'createTime', type: 'timestampMs', description: 'When the push was made.' },
  { path: 'sendTime', type: 'timestampMs', description: 'When the push was sent.' },
];

/** The envelope's descriptions, shown translated (editor/shown-texts.ts). */
export function pushEnvelopeTexts(): string[] {
  return [...JSON_ENVELOPE, ...BINARY_ENVELOPE].map((p) => p.description);
}

/** A push's paths as an expectation writes them: `d.deals[*].p`, `publicAggreDeals.deals[*].price`. */
function streamPushPaths(info: StreamDescription): PushPath[] {
  const body = info.body?.name ?? 'd';
  return [
    ...(info.body === undefined ? JSON_ENVELOPE : BINARY_ENVELOPE),
    ...info.fields.map((f) => ({ ...f, path: `${body}.${f.path.replaceAll('[]', '[*]')}` })),
  ];
}

/**
 * The paths of the pushes the request's streams send under `deployment`; a request whose names do
 * not read (variables, mistakes) gets the paths of every stream of the deployment.
 */
export function requestPushPaths(request: RequestBlock, deployment: StreamCatalog): PushPath[] {
  const read = request.streams.flatMap((token) => {
    const r = readStreamName(token.text, deployment);
    return r.ok ? [r.value.info] : [];
  });
  const infos = read.length > 0 ? read : deployment.streams;
  const byPath = new Map<string, PushPath>();
  for (const info of infos) for (const p of streamPushPaths(info)) if (!byPath.has(p.path)) byPath.set(p.path, p);
  return [...byPath.values()];
}

/** The known path a written one names (`d.deals[0].p` names `d.deals[*].p`). */
function pushPathOf(written: string, paths: readonly PushPath[]): PushPath | undefined {
  const general = written.replace(/\[(\d+|\*)\]/g, '[*]');
  return paths.find((p) => p.path === general);
}

function pushPathCompletions(r: Range, paths: readonly PushPath[]): CompletionEntry[] {
  return paths.map((p, i) => ({
    label: p.path,
    kind: 'parameter',
    insertText: p.path + ' ',
    detail: `${p.type} · ${t(p.description)}`,
    documentation: t("A field of this request's pushes (the environment's deployment)."),
    range: r,
    sortText: String(i).padStart(4, '0'),
    retrigger: true,
  }));
}

const EXPECT_LINE = /^\s*(?:#|\/\/)\s*@expect\s+(.*)$/;

/**
 * Completion on an `# @expect` line, or undefined when the cursor is not on one: the kinds, then
 * paths of the request's last answer (json) or of its pushes (message), then the operators of the kind.
 */
export function expectationCompletions(
  before: string,
  line: number,
  character: number,
  websocket: boolean,
  answerPaths: readonly AnswerPath[] | undefined,
  pushPaths: readonly PushPath[] = [],
): CompletionEntry[] | undefined {
  const m = EXPECT_LINE.exec(before);
  if (!m) return undefined;
  const words = m[1]!.split(/\s+/);
  const typed = words[words.length - 1]!;
  const r = range(line, character - typed.length, line, character);
  const kind = words[0] as ExpectKind;
  if (words.length === 1) return kindCompletions(r, websocket);
  if (!(EXPECT_KINDS as readonly string[]).includes(kind)) return [];
  const withSubject = kind === 'json' || kind === 'message' || kind === 'header';
  if (withSubject && words.length === 2) {
    if (kind === 'json') return pathCompletions(r, answerPaths ?? []);
    return kind === 'message' ? pushPathCompletions(r, pushPaths) : [];
  }
  const operatorAt = withSubject ? 2 : 1;
  if (words.length === operatorAt + 1) return operatorCompletions(kind, r);
  if (words[operatorAt] === 'not' && words.length === operatorAt + 2) return operatorCompletions(kind, r, 'exists');
  if (words[operatorAt] === 'count' && words.length === operatorAt + 2) return operatorCompletions('status', r);
  return [];
}

function kindCompletions(r: Range, websocket: boolean): CompletionEntry[] {
  const kinds = EXPECT_KINDS.filter((k) => (k === 'message') === websocket);
  return kinds.map((k, i) => ({
    label: k,
    kind: 'directive',
    insertText: k + ' ',
    detail: kindUsage(k).replace(/`/g, ''),
    range: r,
    sortText: String(i),
    retrigger: true,
  }));
}

function operatorCompletions(kind: ExpectKind, r: Range, only?: string): CompletionEntry[] {
  const ops = only ? [only] : OPERATORS[kind];
  return ops.map((op, i) => ({
    label: op,
    kind: 'operator',
    insertText: op === 'matches' ? 'matches /${1}/' : op === 'in' ? 'in [${1}]' : op,
    snippet: op === 'matches' || op === 'in',
    detail: operatorWords(op),
    range: r,
    sortText: String(i).padStart(2, '0'),
  }));
}

function pathCompletions(r: Range, paths: readonly AnswerPath[]): CompletionEntry[] {
  return paths.map((p, i) => ({
    label: p.path,
    kind: 'parameter',
    insertText: p.path + ' ',
    detail: p.sample,
    documentation: t('A field of the last answer of this request in the editor.'),
    range: r,
    sortText: String(i).padStart(4, '0'),
    retrigger: true,
  }));
}

/** Members of an answer's JSON that a path can name (no `.`, brackets, space or operator in them). */
const NAMEABLE = /^[^\s.[\]=!<>]+$/;
const PATHS_KEPT = 200;
const PATH_DEPTH = 6;

/**
 * The paths of an answer, breadth first, for completion: every member, and for a list `[*]` with
 * the members of its first element. Bounded in count and depth; each with a short sample.
 */
export function answerPaths(json: unknown): AnswerPath[] {
  // A listen key in the answer is a credential: its samples say so instead of showing it.
  const secrets = credentialsIn(json);
  const sample = (v: unknown): string =>
    typeof v === 'string' && secrets.some((s) => v.includes(s)) ? t('a credential (not shown)') : sampleOf(v);
  const out: AnswerPath[] = [];
  const queue: { path: string; value: unknown; depth: number }[] = [{ path: '', value: json, depth: 0 }];
  for (let i = 0; i < queue.length && out.length < PATHS_KEPT; i++) {
    const { path, value, depth } = queue[i]!;
    if (value === null || typeof value !== 'object' || depth >= PATH_DEPTH) continue;
    const children: [string, unknown][] = Array.isArray(value)
      ? value.length > 0
        ? [[`${path || '$'}[*]`, value[0]]]
        : []
      : Object.keys(value)
          .slice(0, PATHS_KEPT)
          .filter((k) => NAMEABLE.test(k))
          .map((k) => [path ? `${path}.${k}` : k, (value as Record<string, unknown>)[k]]);
    for (const [p, v] of children) {
      out.push({ path: p, sample: sample(v) });
      queue.push({ path: p, value: v, depth: depth + 1 });
    }
  }
  return out.slice(0, PATHS_KEPT);
}

function sampleOf(v: unknown): string {
  if (Array.isArray(v)) return t('a list of {0}', v.length);
  if (v !== null && typeof v === 'object') return t('an object');
  return clip(JSON.stringify(v) ?? String(v), Math.min(40, BOUNDS.messageChars));
}
