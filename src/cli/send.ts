import { Budget } from '../core/budget/budget';
import { budgetText } from './budget-text';
import { defaultStateDir, FileStateStore } from '../core/budget/state';
import { ClockSync } from '../core/clock/sync';
import { jsonOrText, prettyBody } from '../core/format/json-value';
import type { ResolvedRequest } from '../core/format/resolve';
import type { RequestBlock } from '../core/format/model';
import { readOptions } from '../core/format/directives';
import { err, ok, type Result } from '../core/result';
import type { RoundTripReport } from '../core/net/round-trip';
import { NodeHttpSender } from '../core/net/node-http-sender';
import type { Network } from '../core/net/network';
import { cliNetwork, NETWORK_OPTIONS } from './network';
import { DEFAULT_SEND_SETTINGS, type Sender } from '../core/net/send';
import type { ExpectationResult } from '../core/request/expect';
import { hideListenKeys, listenKeysOf } from '../core/request/listen-keys';
import { passed, runRequest, type Sent } from '../core/request/pipeline';
import { requestTitle } from '../core/testing/cases';
import type { ChainedResponses, UsedAnswer } from '../core/request/kept-answers';
import { formatErrorText } from '../core/catalog/errors';
import { errorsBeforeSend, SHOWN_BEFORE_SEND } from '../core/check/before-send';
import type { Diagnostic } from '../core/format/model';
import { parseCommand, timeoutFlag } from './args';
import { OPTION_MAX } from '../core/bounds';
import {
  chainedResponses,
  failureMessage,
  keySource,
  loadTarget,
  location,
  notConfirmedMessage,
  type Target,
} from './prepare';
import { CLI, NETWORK, REQUESTS, SEND } from './messages';
import { paint, paintText, terminalSafe } from './terminal';
import { UsageError, type Io, type Piece, type Style } from './usage';

export const EXIT = { ok: 0, rejected: 1, badInput: 2, unknown: 3, refused: 4 } as const;

/** Of several requests' exit codes, the one to report: an unknown outcome (3) outranks all, so a script never retries an order that may have gone through. */
const EXIT_RANK: readonly number[] = [EXIT.ok, EXIT.rejected, EXIT.badInput, EXIT.refused, EXIT.unknown];
export function worstExit(codes: readonly number[]): number {
  return codes.reduce((worst, c) => (EXIT_RANK.indexOf(c) > EXIT_RANK.indexOf(worst) ? c : worst), EXIT.ok);
}

type RunResult = {
  exit: number;
  report?: RoundTripReport;
  expectations: ExpectationResult[];
  error?: string;
  resolved?: ResolvedRequest;
  note?: string;
  /** A 700003 after which the clock offset was measured again: the request may be sent again as it is. */
  sendAgain?: boolean;
  /** Answers of earlier runs that the request read ({{NAME.response.PATH}} of a request not sent in this run). */
  used?: readonly UsedAnswer[];
};

/** The command line's sender: node:http over the command's network, with --timeout and --connect-timeout (ms) over the defaults. */
export function cliSender(timeout: number | undefined, connectTimeout: number | undefined, network: Network): Sender {
  return new NodeHttpSender(
    {
      ...DEFAULT_SEND_SETTINGS,
      connectTimeoutMs: connectTimeout ?? DEFAULT_SEND_SETTINGS.connectTimeoutMs,
      headersTimeoutMs: timeout ?? DEFAULT_SEND_SETTINGS.headersTimeoutMs,
      bodyTimeoutMs: timeout ?? DEFAULT_SEND_SETTINGS.bodyTimeoutMs,
      deadlineMs: timeout ?? DEFAULT_SEND_SETTINGS.deadlineMs,
    },
    network,
  );
}

/** An order's confirmation: --yes, else a question on a terminal; without one, no. */
export function terminalConfirm(
  yes: boolean | undefined,
): (resolved: { environment: { name: string }; origin: string }, order: string) => Promise<boolean> {
  return async (resolved, order) =>
    yes === true ||
    (process.stdin.isTTY === true &&
      (await confirm(REQUESTS.confirm(order, resolved.environment.name, resolved.origin))));
}

async function confirm(question: string): Promise<boolean> {
  // Loaded only when there is something to ask: most sends never ask.
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  // The end of input (Ctrl-D) closes the interface without settling the question: that is a no.
  const closed = new Promise<string>((resolve) => rl.once('close', () => resolve('')));
  try {
    // The question holds values from files and answers (environment, origin, order): escaped.
    const answer = await Promise.race([rl.question(REQUESTS.yesNo(terminalSafe(question))), closed]);
    return /^y(es)?$/i.test(answer.trim());
  } catch {
    return false;
  } finally {
    rl.close();
  }
}

const SEND_OPTIONS = {
  request: { type: 'string' },
  all: { type: 'boolean' },
  env: { type: 'string' },
  'base-url': { type: 'string' },
  yes: { type: 'boolean' },
  'no-clock-sync': { type: 'boolean' },
  'no-check': { type: 'boolean' },
  timeout: { type: 'string' },
  'connect-timeout': { type: 'string' },
  json: { type: 'boolean' },
  row: { type: 'string' },
  ...NETWORK_OPTIONS,
} as const;

export async function sendCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommand('send', args, SEND_OPTIONS);
  if (values.help) {
    const { deadlineMs, connectTimeoutMs } = DEFAULT_SEND_SETTINGS;
    io.out(
      SEND.help({
        deadlineMs,
        connectTimeoutMs,
        maxTimeoutMs: OPTION_MAX.timeoutMs,
        stateDir: defaultStateDir(),
        network: NETWORK.help,
      }),
    );
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError(SEND.takesOneFile);
  const timeout = timeoutFlag('timeout', values.timeout);
  const connectTimeout = timeoutFlag('connect-timeout', values['connect-timeout']);
  const target = loadTarget(io, {
    file: positionals[0]!,
    request: values.request,
    all: values.all,
    env: values.env,
    baseUrl: values['base-url'],
  });
  const stateDir = defaultStateDir(io.env);
  const store = new FileStateStore(stateDir);
  const sender = cliSender(timeout, connectTimeout, cliNetwork(values, io.env));
  const deps: SendDeps = {
    budget: new Budget(store),
    clock: new ClockSync(store),
    sender,
    responses: chainedResponses(stateDir, target),
    clockSync: !values['no-clock-sync'],
    yes: values.yes === true,
    row: rowFlag(values.row),
    errors: values['no-check'] ? undefined : errorsBeforeSend(target.file.doc, target.environment),
  };
  try {
    return await sendAll(io, target, deps, values.json === true);
  } finally {
    await sender.close();
  }
}

/** Sends the target's requests in order; the exit code is the worst of them. */
async function sendAll(io: Io, target: Target, deps: SendDeps, json: boolean): Promise<number> {
  let exit = 0;
  for (const request of target.requests) {
    const sent = await sendOne(io, target, request, deps);
    const { used, warnings } = deps.responses.take();
    const result = { ...sent, used };
    for (const w of warnings) io.err(CLI.warning(w));
    // With one request, bad input is the command's failure: one line on standard error.
    if (result.exit === EXIT.badInput && target.requests.length === 1) throw new UsageError(result.error ?? '');
    exit = worstExit([exit, result.exit]);
    print(io, target, request.index, result, json);
  }
  return exit;
}

interface SendDeps {
  readonly budget: Budget;
  readonly clock: ClockSync;
  readonly sender: Sender;
  readonly responses: ChainedResponses;
  readonly clockSync: boolean;
  readonly yes: boolean;
  /** --row N: the row of a `# @data` request's file to send (1-based; default the first). */
  readonly row?: number;
  /** The errors check finds in a request, which keep it from being sent; undefined with --no-check. */
  readonly errors?: (request: RequestBlock) => readonly Diagnostic[];
}

function rowFlag(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,9}$/.test(text) || Number(text) < 1) throw new UsageError(SEND.row(text));
  return Number(text);
}

/** A `# @data` request's row (--row N, else the first), said on standard error; or why there is none. */
function dataRow(
  io: Io,
  target: Target,
  request: RequestBlock,
  row: number | undefined,
): Result<ReadonlyMap<string, string> | undefined, string> {
  const source = readOptions(target.file.doc, request).options.data;
  if (!source) return ok(undefined);
  const { loadData } = require('../core/testing/data') as typeof import('../core/testing/data');
  const table = loadData(target.file.path, source);
  if (!table.ok) return err(SEND.dataFile(table.error));
  const rows = table.value.rows.length;
  const values = table.value.rows[(row ?? 1) - 1];
  if (!values) return err(SEND.noRow(row ?? 1, source.path, rows));
  io.err(CLI.said(SEND.dataRow(source.path, row ?? 1, rows, row === undefined && rows > 1)));
  return ok(values);
}

async function sendOne(
  io: Io,
  target: Target,
  request: Target['requests'][number],
  deps: SendDeps,
): Promise<RunResult> {
  const errors = deps.errors?.(request) ?? [];
  if (errors.length > 0) return { exit: EXIT.badInput, expectations: [], error: checkErrors(target, errors) };
  const variables = dataRow(io, target, request, deps.row);
  if (!variables.ok) return { exit: EXIT.badInput, expectations: [], error: variables.error };
  const result = await runRequest(target.file.doc, request, target.environment, {
    ...deps,
    variables: variables.value,
    key: keySource(target, io.env),
    confirm: terminalConfirm(deps.yes),
  });
  if (result.ok) return sentResult(result.value);
  const failure = result.error;
  if (failure.kind !== 'refused')
    return { exit: EXIT.badInput, expectations: [], error: failureMessage(target.file, failure) };
  // Without --yes, a terminal asked (terminalConfirm) and the answer was no; without one, nobody was asked.
  const error =
    failure.reason === 'confirmation'
      ? notConfirmedMessage(failure.resolved, failure.confirmation, process.stdin.isTTY === true)
      : failure.message;
  return { exit: EXIT.refused, expectations: [], resolved: failure.resolved, error };
}

/** Why a request with errors that check finds was not sent: the first of them, each with its place and rule. */
export function checkErrors(target: Pick<Target, 'file'>, errors: readonly Diagnostic[]): string {
  const shown = errors
    .slice(0, SHOWN_BEFORE_SEND)
    .map((d) => `${location(target.file, d.range.startLine, d.range.startChar)}: ${d.rule}: ${d.message}`);
  return REQUESTS.checkErrors(shown, errors.length, target.file.displayPath);
}

/** Unknown and refused outcomes keep their codes; otherwise ok (or a rejection # @expect asked for) with every expectation met. */
function sentResult(sent: Sent): RunResult {
  const outcome = sent.report.outcome;
  const exit =
    outcome === 'unknown'
      ? EXIT.unknown
      : outcome === 'refused'
        ? EXIT.refused
        : passed(sent)
          ? EXIT.ok
          : EXIT.rejected;
  const { report, resolved, note, sendAgain } = sent;
  return { exit, report, expectations: [...sent.expectations], resolved, note, sendAgain };
}

function print(io: Io, target: Target, index: number, r: RunResult, json: boolean): void {
  const request = target.file.doc.requests[index]!;
  // A listen key sent or received is a credential: masked on standard output too.
  const keys = listenKeysOf(r.report, r.resolved?.params ?? []);
  const hide = (text: string): string => hideListenKeys(text, keys);
  if (json) {
    const label = `${index + 1}${request.name ? ` (${request.name.text})` : ''}`;
    const next = r.sendAgain ? againStep(target, index) : null;
    io.out(hide(JSON.stringify({ ...jsonRecord(label, request, r), next })));
    return;
  }
  const pieces = reportPieces(target, index, r).flatMap((line) => [
    ...line.map((p) => (typeof p === 'string' ? hide(p) : { ...p, text: hide(p.text) })),
    '\n',
  ]);
  // Bad input goes to standard error, plain: colour is for standard output on a terminal.
  if (r.exit === EXIT.badInput) io.err(paintText(pieces, false));
  else paint(io, pieces);
}

/** The colour of a request's outcome line, by its exit code. */
const OUTCOME_STYLE: Record<number, Style> = {
  [EXIT.ok]: 'green',
  [EXIT.rejected]: 'red',
  [EXIT.badInput]: 'red',
  [EXIT.unknown]: 'yellow',
  [EXIT.refused]: 'yellow',
};

/** "### 2. Buy (buy): POST http://…/api/v3/order", then the outcome, what the answer says, and the expectations. */
function reportPieces(target: Target, index: number, r: RunResult): Piece[][] {
  const request = target.file.doc.requests[index]!;
  const report = r.report;
  const line = report
    ? `${report.prepared.method} ${report.prepared.url.split('?')[0]}`
    : r.resolved
      ? `${r.resolved.method} ${r.resolved.url}`
      : request.requestLine.target.text;
  const title = requestTitle(request);
  const lines: Piece[][] = [[{ style: 'bold', text: `### ${index + 1}${title ? `. ${title}` : ''}: ${line}` }]];
  for (const u of r.used ?? []) lines.push(['  ' + REQUESTS.usedAnswer(u)]);
  const style = OUTCOME_STYLE[r.exit] ?? 'bold';
  if (!report) lines.push([{ style, text: SEND.notSent(r.exit === EXIT.refused, r.error ?? '') }]);
  else {
    const [first, ...rest] = reportLines(report, r.note, r.sendAgain ? againStep(target, index) : undefined);
    lines.push([{ style, text: first! }], ...rest.map((l) => [l]));
  }
  r.expectations.forEach((e) =>
    lines.push(
      // A check the send did not run is neither passed nor failed (docs/cli.md, Commands).
      e.checked === false
        ? [{ style: 'dim', text: '–' }, ` ${REQUESTS.notChecked(e.text)}`]
        : [
            e.passed ? { style: 'green', text: '✔' } : { style: 'red', text: '✘' },
            ` ${REQUESTS.expectation(e.text, e.passed, e.actual)}`,
          ],
    ),
  );
  return lines;
}

/** One line of `--json` output per request: every field always present, null when it does not apply. */
function jsonRecord(label: string, request: RequestBlock, r: RunResult): Record<string, unknown> {
  const report = r.report;
  const d = report?.decoded;
  return {
    request: label,
    name: request.name?.text ?? null,
    method: report?.prepared.method ?? r.resolved?.method ?? null,
    url: report?.prepared.url ?? r.resolved?.url ?? null,
    outcome: report?.outcome ?? (r.exit === EXIT.refused ? 'refused' : 'bad-input'),
    exit: r.exit,
    status: report?.response?.status ?? null,
    statusMeaning: d?.statusInfo.meaning ?? null,
    code: d?.code ?? null,
    meanings: d?.error?.meanings ?? null,
    msg: d?.msg ?? null,
    cause: d?.error?.cause ?? null,
    action: d?.error?.action ?? null,
    retryAfter: d?.retryAfterSeconds ?? null,
    body: d && report?.response ? jsonOrText(d.json, report.response.bodyText) : null,
    headers: report?.response?.headers ?? null,
    timings: report?.response?.timings ?? report?.failure?.timings ?? null,
    budget: report?.budget ?? null,
    summary: report?.summary ?? r.error ?? null,
    warning: report?.warning ?? null,
    note: r.note ?? null,
    keptAnswers: (r.used ?? []).map((u) => ({ name: u.name, at: new Date(u.at).toISOString() })),
    expectations: r.expectations,
  };
}

/** After a 700003 and a new measurement of the clock: how to send the request again from the command line. */
function againStep(target: Target, index: number): string {
  return target.requests.length === 1 ? SEND.againAlone : SEND.againOf(index + 1);
}

/** The summary, the decoded error, the body, timings and budget of a request that went out, and the next step. */
function reportLines(report: RoundTripReport, note: string | undefined, next: string | undefined): string[] {
  const lines = [`→ ${report.summary}`];
  const d = report.decoded;
  if (d?.error) for (const l of formatErrorText(d.error).split('\n').slice(1)) lines.push('  ' + l);
  if (d?.msg) lines.push(SEND.serviceMessage(d.msg));
  if (note) lines.push('  ' + note);
  if (next) lines.push('  ' + next);
  if (report.outcome === 'unknown' && !d?.error) lines.push(SEND.notBlindly);
  if (report.response) {
    const pretty = prettyBody(d?.json, report.response.bodyText);
    if (pretty.length > 0)
      lines.push(pretty + (report.response.truncated ? SEND.truncated(report.response.bodyBytes) : ''));
    const t = report.response.timings;
    lines.push(SEND.timings(t.connectMs, t.firstByteMs, t.totalMs));
  }
  lines.push(SEND.budget(budgetText(report.budget)));
  if (report.warning) lines.push(SEND.warning(report.warning));
  return lines;
}
