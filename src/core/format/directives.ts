/** Directives (docs/format.md): what each `# @word args` means for a request, and what is wrong with one. */
import { WS_RULES } from '../catalog/ws-limits';
import { t } from '../l10n';
import { err, ok, type Result } from '../result';
import { PROFILE_NAME_PATTERN } from '../env/keys';
import {
  expectUsage,
  filePatterns,
  parsePath,
  readExpectationLine,
  type ExpectationLine,
  type ExpectationProblem,
} from './expectation';
import type { PathStep } from './json-value';
import type { PatternBudget } from './pattern';
import {
  REQUEST_NAME,
  type Diagnostic,
  type Directive,
  type Range,
  type RequestBlock,
  type TradeReqDocument,
} from './model';

/**
 * A `# @expect` line (format/expectation.ts): `status`, `code`, `json`, `header`, `duration`, or
 * `message`, which passes when one push of a WebSocket request matches (ws/expect.ts).
 */
export type Expectation = ExpectationLine & { readonly directive: Directive };

/** `# @listen`: when a run from the command line ends (the first bound reached). */
export interface ListenOption {
  /** Pushes received. */
  readonly count?: number;
  readonly durationMs?: number;
}

export interface RequestOptions {
  readonly name?: string;
  /** From `@signed` / `@unsigned`; undefined leaves it to the endpoint catalog. */
  readonly signed?: boolean;
  readonly keyProfile?: string;
  readonly weight?: number;
  readonly mode?: 'ip' | 'uid';
  readonly confirm: boolean;
  readonly signaturePlacement: 'query' | 'body';
  readonly expectations: readonly Expectation[];
  /** `# @listenKey`: a WebSocket request obtains a listen key before it connects. */
  readonly listenKey: boolean;
  readonly listen: ListenOption;
  /** `# @mask PATH` lines, the file's then the request's: what a snapshot masks besides the built-in fields. */
  readonly masks: readonly string[];
  /** `# @data FILE`: the request runs once per row of this file (core/testing/data.ts reads it). */
  readonly data?: DataSource;
}

/** A `# @data` file as written: relative to the request file, `/` between folders, in its folder or below. */
export interface DataSource {
  readonly path: string;
  readonly format: 'csv' | 'json';
  /** Where the path is written, for diagnostics. */
  readonly range: Range;
}

/** Options as directives set them, before the request's name is added. */
type Draft = { -readonly [K in keyof Omit<RequestOptions, 'name' | 'expectations'>]: RequestOptions[K] } & {
  expectations: readonly Expectation[];
};

/**
 * What a directive does to the options: undefined when its arguments are right, else the message
 * that says how to write it (a bad-directive on the whole line), or a problem of one part of it.
 * `own` collects the request's expectations.
 */
type Apply = (
  draft: Draft,
  args: string,
  d: Directive,
  own: Expectation[],
  patterns: PatternBudget,
) => string | ExpectationProblem | undefined;

export interface DirectiveInfo {
  readonly name: string;
  readonly usage: string;
  readonly description: string;
  readonly apply: Apply;
}

const set =
  (change: (draft: Draft) => void): Apply =>
  (draft) => {
    change(draft);
    return undefined;
  };

export const DIRECTIVES: readonly DirectiveInfo[] = [
  {
    name: 'name',
    usage: '@name NAME',
    description: 'Names the request, for chaining ({{NAME.response.PATH}}) and for `tradereq sign --request NAME`.',
    apply: (_draft, args) =>
      REQUEST_NAME.test(args) ? undefined : t('Write `# @name NAME` with a name of letters, digits, `_` and `-`.'),
  },
  {
    name: 'signed',
    usage: '@signed',
    description: 'Signs the request even if the endpoint catalog does not mark it signed.',
    apply: set((draft) => (draft.signed = true)),
  },
  {
    name: 'unsigned',
    usage: '@unsigned',
    description: 'Sends the request without timestamp, signature and API key.',
    apply: set((draft) => (draft.signed = false)),
  },
  {
    name: 'key',
    usage: '@key PROFILE',
    description: "Uses this key profile instead of the environment's.",
    apply: (draft, args) => {
      if (!PROFILE_NAME_PATTERN.test(args))
        return t(
          'Write `# @key PROFILE` with the name of a key profile (letters, digits, `_` and `-`), never the key itself.',
        );
      draft.keyProfile = args;
      return undefined;
    },
  },
  {
    name: 'weight',
    usage: '@weight N',
    description: 'Rate-limit weight of an endpoint the catalog does not know.',
    apply: (draft, args) => {
      if (!/^\d+$/.test(args) || Number(args) <= 0) return t('Write `# @weight N` with a positive whole number.');
      draft.weight = Number(args);
      return undefined;
    },
  },
  {
    name: 'mode',
    usage: '@mode ip | @mode uid',
    description: 'Rate-limit counter of an endpoint the catalog does not know: per IP or per account.',
    apply: (draft, args) => {
      if (args !== 'ip' && args !== 'uid')
        return t('Write `# @mode ip` (counted per IP) or `# @mode uid` (counted per account).');
      draft.mode = args;
      return undefined;
    },
  },
  {
    name: 'confirm',
    usage: '@confirm',
    description: 'Always asks before sending this request.',
    apply: set((draft) => (draft.confirm = true)),
  },
  {
    name: 'signature',
    usage: '@signature body',
    description: 'Puts the signature at the end of the form body instead of the query string.',
    apply: (draft, args) => {
      if (args !== 'body' && args !== 'query')
        return t(
          'Write `# @signature body` to put the signature at the end of the form body (the query string is the default).',
        );
      draft.signaturePlacement = args;
      return undefined;
    },
  },
  {
    name: 'expect',
    usage:
      '@expect status 200 | @expect code 30002 | @expect json PATH OP VALUE | @expect header NAME OP VALUE | @expect duration < MS | @expect snapshot | @expect message PATH == VALUE',
    description:
      'A check on the response (`status`, `code`, `json`, `header`, `duration`; `snapshot`: the whole answer against its snapshot file, in a test run) or, for a WebSocket request, on its pushes (`message`: passes when one push matches); OP is ==, !=, <, <=, >, >=, contains, startsWith, matches /re/, in [a, b], or exists, not exists, isString, isNumber, isDecimal, isArray, isObject, count OP N after a path. The command line exits non-zero when one fails.',
    apply: (_draft, _args, d, own, patterns) => {
      const e = readExpectation(d, patterns);
      if (!e.ok) return e.error;
      own.push(e.value);
      return undefined;
    },
  },
  {
    name: 'mask',
    usage: '@mask PATH',
    description:
      'A field of the answer that `# @expect snapshot` masks (replaced by `<NAME>` in the snapshot and the answer), besides the ids and times the service assigns; `[*]` is every element of a list (`fills[*].tradeId`).',
    apply: (draft, args) => {
      if (readMaskPath(args) === undefined)
        return t(
          'Write `# @mask PATH` with a path into the JSON answer as in `# @expect json` (`price`, `fills[0].price`), `[*]` for every element of a list (`fills[*].tradeId`).',
        );
      draft.masks = [...draft.masks, args];
      return undefined;
    },
  },
  {
    name: 'listenKey',
    usage: '@listenKey',
    description:
      "WebSocket request: obtains a listen key first (signed POST /api/v3/userDataStream with the request's key profile), connects with it, keeps it alive while connected and closes it at the end. Needed by the private streams.",
    apply: (draft, args) => {
      if (args !== '')
        return t('Write `# @listenKey` alone: the key is obtained when connecting, never written in the file.');
      draft.listenKey = true;
      return undefined;
    },
  },
  {
    name: 'listen',
    usage: '@listen 30s | @listen 50',
    description:
      'WebSocket request: when `tradereq listen` stops, after a duration (500ms, 30s, 2m, 1h) or a number of pushes; its own --duration and --count flags override it.',
    apply: (draft, args) => {
      const bound = readListenBound(args);
      if (bound === undefined)
        return t(
          'Write `# @listen 30s` (a duration: 500ms, 30s, 2m or 1h, at most {0} h) or `# @listen 50` (a number of pushes).',
          WS_RULES.lifetimeMs / 3_600_000,
        );
      draft.listen = { ...draft.listen, ...bound };
      return undefined;
    },
  },
  {
    name: 'data',
    usage: '@data cases.csv | @data cases.json',
    description:
      "Runs the request once per row of a CSV file (its header row names the variables) or of a JSON array of objects, each row's values as variables; `tradereq test` and the Testing view report each row as a test case. The path is relative to this file, in its folder or below.",
    apply: (draft, args, d) => {
      const format = dataFormat(args);
      if (format === undefined || !d.args)
        return t(
          'Write `# @data FILE.csv` or `# @data FILE.json`: a path relative to this file, with `/` between folders, in its folder or below (no `..`, no absolute path).',
        );
      draft.data = { path: args, format, range: d.args.range };
      return undefined;
    },
  },
];

/**
 * The steps of a `# @mask` path, written as a path of `# @expect json` (format/expectation.ts:
 * members, `[N]`, `[*]` or `.*` for every element of a list) naming a part of the answer; undefined
 * when it is not one.
 */
export function readMaskPath(text: string): PathStep[] | undefined {
  if (text.length > 256 || /\s/.test(text)) return undefined;
  const steps = parsePath(text);
  return steps.ok && steps.value.length > 0 ? steps.value : undefined;
}

/** The format of a `# @data` path, when it is one: relative, `/`-separated, no `..`, no `{{` (directive arguments are not substituted). */
function dataFormat(path: string): 'csv' | 'json' | undefined {
  // eslint-disable-next-line no-control-regex -- a path with a control character is no file name to open
  if (path.length > 1_000 || /[\\:{}\u0000-\u001f]/.test(path) || path.startsWith('/')) return undefined;
  if (path.split('/').some((segment) => segment === '..' || segment === '')) return undefined;
  const m = /\.(csv|json)$/i.exec(path);
  return m ? (m[1]!.toLowerCase() as 'csv' | 'json') : undefined;
}

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `30s` → a duration, `50` → a count of pushes; undefined when it is neither (or past a connection's lifetime). */
function readListenBound(args: string): ListenOption | undefined {
  const m = /^(\d{1,9})(ms|s|m|h)?$/.exec(args);
  if (!m || Number(m[1]) <= 0) return undefined;
  if (m[2] === undefined) return { count: Number(m[1]) };
  const durationMs = Number(m[1]) * UNIT_MS[m[2]]!;
  // The family closes every connection after 24 hours (WS_RULES.lifetimeMs).
  return durationMs <= WS_RULES.lifetimeMs ? { durationMs } : undefined;
}

const BY_NAME: ReadonlyMap<string, DirectiveInfo> = new Map(DIRECTIVES.map((d) => [d.name, d]));

const FILE_OPTIONS = new WeakMap<TradeReqDocument, { draft: Readonly<Draft>; diagnostics: readonly Diagnostic[] }>();

/** The file's own directives, read once per document: every request starts from them. */
function fileOptions(doc: TradeReqDocument): { draft: Readonly<Draft>; diagnostics: readonly Diagnostic[] } {
  let cached = FILE_OPTIONS.get(doc);
  if (!cached) {
    const draft: Draft = {
      confirm: false,
      signaturePlacement: 'query',
      expectations: [],
      listenKey: false,
      listen: {},
      masks: [],
    };
    const diagnostics: Diagnostic[] = [];
    applyDirectives(draft, doc.fileDirectives, diagnostics, filePatterns(doc));
    if (draft.data) {
      // Every request once per row would multiply the file: a data file belongs to one request.
      diagnostics.push({
        range: draft.data.range,
        severity: 'error',
        message: t('Write `# @data FILE` under the `###` line of the request it feeds, not among the file directives.'),
        rule: 'bad-directive',
      });
      delete draft.data;
    }
    cached = { draft, diagnostics };
    FILE_OPTIONS.set(doc, cached);
  }
  return cached;
}

/**
 * Options of `request`: the file's directives first, then the request's own, which win.
 * Problems with arguments are returned as diagnostics (the request's own in `diagnostics`, the
 * file's in `fileDiagnostics`); the options leave such directives out.
 */
export function readOptions(
  doc: TradeReqDocument,
  request: RequestBlock | undefined,
): { options: RequestOptions; diagnostics: Diagnostic[]; fileDiagnostics: readonly Diagnostic[] } {
  const file = fileOptions(doc);
  const draft: Draft = { ...file.draft };
  const diagnostics: Diagnostic[] = [];
  if (request) applyDirectives(draft, request.directives, diagnostics, filePatterns(doc));
  return { options: { ...draft, name: request?.name?.text }, diagnostics, fileDiagnostics: file.diagnostics };
}

/** Applies `directives` in order onto `draft`; expectations are added to a new list, never to a shared one. */
function applyDirectives(
  draft: Draft,
  directives: readonly Directive[],
  diagnostics: Diagnostic[],
  patterns: PatternBudget,
): void {
  const own: Expectation[] = [];
  for (const d of directives) {
    const info = BY_NAME.get(d.name.text);
    if (info === undefined) {
      diagnostics.push({
        range: d.name.range,
        severity: 'warning',
        message: t(
          'Unknown directive @{0}: known are {1}. Write a plain comment without "@".',
          d.name.text,
          DIRECTIVES.map((x) => '@' + x.name).join(', '),
        ),
        rule: 'unknown-directive',
      });
      continue;
    }
    const problem = info.apply(draft, d.args?.text ?? '', d, own, patterns);
    if (typeof problem === 'string')
      diagnostics.push({ range: d.range, severity: 'error', message: problem, rule: 'bad-directive' });
    else if (problem !== undefined)
      diagnostics.push({ ...problem, range: problem.range ?? d.range, severity: 'error' });
  }
  if (own.length > 0) draft.expectations = draft.expectations.length > 0 ? [...draft.expectations, ...own] : own;
}

function readExpectation(d: Directive, patterns: PatternBudget): Result<Expectation, ExpectationProblem> {
  if (!d.args) return err({ message: expectUsage(), rule: 'bad-directive' });
  const line = readExpectationLine(d.args.text, d.args.range.startLine, d.args.range.startChar, patterns);
  return line.ok ? ok({ ...line.value, directive: d }) : line;
}
