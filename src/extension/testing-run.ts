import * as vscode from 'vscode';
import type { NamedEnvironment } from '../core/env/constants';
import type { TradeReqDocument } from '../core/format/model';
import type { ResolvedRequest } from '../core/format/resolve';
import { formatSize } from '../core/bounds';
import { ANSWER_STORE, AnswerStore, answerPlace, type PlacedAnswers } from '../core/request/answer-store';
import type { KeySource } from '../core/request/prepare';
import { refusalBeforeSend } from '../core/check/before-send';
import { testCases, withNeeded, type TestCase } from '../core/testing/cases';
import type { RunDeps as CaseRunDeps } from '../core/testing/run';
import type { Pacer } from '../core/testing/pace';
import {
  failureLines,
  paceText,
  type CaseResult,
  type CheckedExpectation,
  type PaceSummary,
} from '../core/testing/verdict';
import type { SandboxHolder } from './commands';
import { toRange } from './documents';
import { checkErrorLines } from './dialogs';
import { editorKeySource } from './editor-keys';
import type { Environments } from './environments';
import type { KeyStore } from './keys';
import { lazy } from './lazy';
import type { Network } from './network';
import { resultKey, type RecordedResult } from './testing';

/** The context value of a snapshot's message: its "Update Snapshots" button (package.json, testing/message/content). */
const SNAPSHOT_MESSAGE = 'tradereq.snapshot';

export interface RunParts {
  readonly controller: vscode.TestController;
  readonly results: Map<string, RecordedResult>;
  readonly environments: Environments;
  readonly keys: KeyStore;
  readonly network: Network;
  readonly sandbox: SandboxHolder;
  readonly log: vscode.LogOutputChannel;
  /** Discovers the workspace's files (a run of everything needs them). */
  discover(): Promise<void>;
  /** The file's current requests (its items synced to them), or why it cannot be read. */
  fileModel(file: vscode.TestItem): Promise<TradeReqDocument | string>;
  caseOf(item: vscode.TestItem): TestCase | undefined;
}

/** Where a run sends: the sandbox (its demo key, nothing elsewhere) or each file's selected environment. */
interface Target {
  environmentFor(uri: vscode.Uri): Promise<NamedEnvironment>;
  readonly key: KeySource;
  confirm(resolved: ResolvedRequest, order: string): Promise<boolean> | boolean;
  readonly onlyOrigin?: string;
  /** tradereq.testing.pace: one pacer for the whole run. */
  readonly pace?: Pacer;
}

export async function runTests(
  request: vscode.TestRunRequest,
  token: vscode.CancellationToken,
  kind: 'sandbox' | 'environment',
  parts: RunParts,
  updateSnapshots = false,
): Promise<void> {
  const run = parts.controller.createTestRun(request);
  parts.results.clear();
  let pace: Pacer | undefined;
  try {
    const files = await queue(request, parts);
    const target = await targetOf(kind, run, parts);
    pace = typeof target === 'string' ? undefined : pacer(parts, token);
    for (const [file, items] of files) {
      if (typeof target === 'string' || token.isCancellationRequested) {
        // A run that cannot start says why on each item; a cancelled one skips what is left.
        const result: RecordedResult =
          typeof target === 'string'
            ? { state: 'errored', messages: [{ text: target }] }
            : { state: 'skipped', messages: [{ text: vscode.l10n.t('not run: the run was cancelled') }] };
        for (const item of items) record(parts, run, item, result);
        continue;
      }
      await runFile(file, items, run, token, { ...target, updateSnapshots, pace }, parts);
    }
    const paced = pace?.summary();
    if (paced) run.appendOutput(`${paceLine(paced)}\r\n`);
  } finally {
    run.end();
  }
}

/** tradereq.testing.pace: "off" (the default) or the fraction of each rate-limit budget a run stays under. */
function paceSetting(log: vscode.LogOutputChannel): number | undefined {
  const value: unknown = vscode.workspace.getConfiguration('tradereq').get('testing.pace');
  if (value === undefined || value === 'off') return undefined;
  if (typeof value === 'number' && value > 0 && value <= 1) return value;
  log.warn(
    `tradereq.testing.pace is "off" or a number more than 0 and at most 1, not ${JSON.stringify(value)}: the run is not paced`,
  );
  return undefined;
}

/** A pacer for this run when the setting asks for one; its waits end when the run is cancelled. */
function pacer(parts: RunParts, token: vscode.CancellationToken): Pacer | undefined {
  const fraction = paceSetting(parts.log);
  if (fraction === undefined) return undefined;
  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        cancel.dispose();
        resolve();
      };
      const timer = setTimeout(done, ms);
      const cancel = token.onCancellationRequested(done);
    });
  const budget = parts.network.get().budget;
  return new (lazy().Pacer)({ fraction, budget, sleep, cancelled: () => token.isCancellationRequested });
}

/** The run's last line of output: how long pacing waited. */
function paceLine(p: PaceSummary): string {
  const text = paceText(p);
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** The requested request items by file, in the order of files and requests; excluded ones left out. */
async function queue(
  request: vscode.TestRunRequest,
  parts: RunParts,
): Promise<Map<vscode.TestItem, vscode.TestItem[]>> {
  const roots: vscode.TestItem[] = [];
  // One by one: a selection may hold more items than the stack holds arguments.
  if (request.include) for (const item of request.include) roots.push(item);
  else {
    await parts.discover();
    parts.controller.items.forEach((item) => roots.push(item));
  }
  const excluded = new Set(request.exclude ?? []);
  const files = new Map<vscode.TestItem, Set<string>>();
  for (const item of roots) {
    const file = fileOf(item);
    if (excluded.has(file) || excluded.has(item) || (item.parent && excluded.has(item.parent))) continue;
    const ids = files.get(file) ?? new Set<string>();
    if (item.parent) ids.add(item.id);
    else file.children.forEach((c) => ids.add(c.id));
    files.set(file, ids);
  }
  const byUri = [...files.entries()].sort(([a], [b]) => a.id.localeCompare(b.id));
  return new Map(
    byUri.map(([file, ids]) => {
      const items: vscode.TestItem[] = [];
      file.children.forEach((c) => {
        if (excluded.has(c)) return;
        if (ids.has(c.id)) items.push(c);
        // A row of a `# @data` request, chosen alone.
        else c.children.forEach((row) => ids.has(row.id) && !excluded.has(row) && items.push(row));
      });
      return [file, items];
    }),
  );
}

/** The file item of a request item, or of a `# @data` row's item. */
function fileOf(item: vscode.TestItem): vscode.TestItem {
  let file = item;
  while (file.parent) file = file.parent;
  return file;
}

/** The item of `id` in `file` as it is now: a request's, or a `# @data` row's (`name:buy#row3`). */
function itemOf(file: vscode.TestItem, id: string): vscode.TestItem | undefined {
  const row = id.lastIndexOf('#row');
  return file.children.get(id) ?? (row > 0 ? file.children.get(id.slice(0, row))?.children.get(id) : undefined);
}

/**
 * The cases to run and the item each reports to (a `# @data` request's item stands for its rows):
 * the items', and those of the requests whose answers they read, each saying which ones read it,
 * as `tradereq test --grep` runs them (a run starts with no answers).
 */
function casesOf(
  file: vscode.TestItem,
  doc: TradeReqDocument,
  items: readonly vscode.TestItem[],
  parts: RunParts,
): { cases: TestCase[]; byId: Map<string, vscode.TestItem>; added: TestCase[] } {
  const byId = new Map<string, vscode.TestItem>();
  const cases = new Map<string, TestCase>();
  const add = (item: vscode.TestItem, neededBy?: readonly string[]): void => {
    const c = parts.caseOf(item);
    if (!c || byId.has(c.id)) return;
    byId.set(c.id, item);
    cases.set(c.id, neededBy ? { ...c, neededBy } : c);
  };
  const addItem = (item: vscode.TestItem, neededBy?: readonly string[]): void => {
    const c = parts.caseOf(item);
    if (c?.data && c.dataProblem === undefined && item.children.size > 0)
      item.children.forEach((r) => add(r, neededBy));
    else add(item, neededBy);
  };
  for (const item of items) addItem(item);
  const picked = new Set([...cases.values()].map((c) => c.index));
  const added = withNeeded(doc, testCases(doc), (c) => picked.has(c.index)).filter((c) => c.neededBy);
  for (const c of added) {
    const item = file.children.get(c.id);
    if (item) addItem(item, c.neededBy);
  }
  return { cases: [...cases.values()], byId, added };
}

async function runFile(
  file: vscode.TestItem,
  requested: readonly vscode.TestItem[],
  run: vscode.TestRun,
  token: vscode.CancellationToken,
  target: Target & { readonly updateSnapshots: boolean },
  parts: RunParts,
): Promise<void> {
  const uri = file.uri!;
  const doc = await parts.fileModel(file);
  // The file as it is now: its items were synced to it, by id.
  const items = requested.map((i) => itemOf(file, i.id)).filter((i): i is vscode.TestItem => i !== undefined);
  if (typeof doc === 'string') {
    for (const item of items) record(parts, run, item, { state: 'errored', messages: [{ text: doc }] });
    return;
  }
  const { cases, byId, added } = casesOf(file, doc, items, parts);
  for (const item of byId.values()) run.enqueued(item);
  for (const c of added) run.appendOutput(`${alsoRuns(c)}\r\n`);
  const environment = await target.environmentFor(uri);
  const snapshots = snapshotsOf(uri, target.updateSnapshots);
  await lazy().runCases(doc, cases, {
    pipeline: { ...parts.network.get(), clockSync: true, key: target.key, confirm: (r, o) => target.confirm(r, o) },
    environment,
    responses: runAnswers(run, uri, environment),
    onlyOrigin: target.onlyOrigin,
    pace: target.pace,
    cancelled: () => token.isCancellationRequested,
    onStart: (c) => {
      const item = byId.get(c.id)!;
      run.started(item);
      parts.results.set(resultKey(item), { state: 'started', messages: [] });
    },
    onResult: (r) => report(parts, run, byId.get(r.case.id)!, uri, r),
    snapshots,
    checkFirst: checkFirst(doc, environment),
  });
  if (snapshots) await saveSnapshots(snapshots, run, parts);
}

/**
 * A case whose request has errors that check finds is not sent, as `tradereq test` without
 * `--no-check`: a run asks nothing; Send on the request asks (docs/editor.md, The Testing view).
 */
function checkFirst(doc: TradeReqDocument, environment: NamedEnvironment): NonNullable<CaseRunDeps['checkFirst']> {
  return refusalBeforeSend(doc, environment, (errors) => {
    const why = vscode.l10n.t(
      'Not sent: check found errors the service would refuse. Fix them, or use Send on the request, which asks whether to send it anyway.',
    );
    return `${why}\n${checkErrorLines(errors)}`;
  });
}

/** Why a request that was not chosen runs: another reads its answer (as `tradereq test --grep` says it). */
function alsoRuns(c: TestCase): string {
  const readers = (c.neededBy ?? []).map((l) => `"${l}"`).join(', ');
  return vscode.l10n.t('Also runs "{0}": {1} reads its answer.', c.label, readers);
}

/**
 * The answers a file's run reads and keeps: this run's of this file only, as `tradereq test` keeps
 * them, none from an earlier run or from Send; an answer too large to keep is said in the output.
 */
function runAnswers(run: vscode.TestRun, uri: vscode.Uri, environment: NamedEnvironment): PlacedAnswers {
  const tooLarge = (name: string): string =>
    vscode.l10n.t(
      'The answer of "{0}" is larger than {1}: it is not kept, and no request of this run can read it.',
      name,
      formatSize(ANSWER_STORE.answerChars),
    );
  return new AnswerStore().at(answerPlace(uri.toString(), environment), (name) =>
    run.appendOutput(`${tooLarge(name)}\r\n`),
  );
}

/** A file's snapshots: beside a file on disk; an untitled or virtual file has none (its # @expect snapshot fails). */
function snapshotsOf(
  uri: vscode.Uri,
  update: boolean,
): InstanceType<ReturnType<typeof lazy>['SnapshotStore']> | undefined {
  if (uri.scheme !== 'file') return undefined;
  return new (lazy().SnapshotStore)(uri.fsPath, {
    update,
    shown: vscode.workspace.asRelativePath(uri),
    howToUpdate: vscode.l10n.t(
      'run "TradeReq: Update Snapshots" (or the "Run against the sandbox and update snapshots" profile)',
    ),
  });
}

/** Writes what the run changed in a file's snapshots; says so in the run's output (and the log when it cannot). */
async function saveSnapshots(
  store: InstanceType<ReturnType<typeof lazy>['SnapshotStore']>,
  run: vscode.TestRun,
  parts: RunParts,
): Promise<void> {
  const saved = await store.save();
  if ('error' in saved) {
    run.appendOutput(`${saved.error}.\r\n`);
    parts.log.error(`snapshots: ${saved.error}`);
  } else if (saved.created + saved.changed > 0)
    run.appendOutput(
      vscode.l10n.t('Snapshots written to {0}: {1} new, {2} updated.', store.shown, saved.created, saved.changed) +
        '\r\n',
    );
}

async function targetOf(
  kind: 'sandbox' | 'environment',
  run: vscode.TestRun,
  parts: RunParts,
): Promise<Target | string> {
  const { environments } = parts;
  if (kind === 'environment') {
    if (!vscode.workspace.isTrusted)
      return vscode.l10n.t(
        'Not run: running against an environment needs a trusted workspace (Manage Workspace Trust). Nothing was sent.',
      );
    return {
      environmentFor: async (uri) => {
        await environments.ready(uri);
        return environments.current(uri);
      },
      key: editorKeySource(parts.keys),
      confirm: oncePerRun(parts.log),
    };
  }
  const baseUrl = await startedSandbox(run, parts);
  if (baseUrl === undefined)
    return vscode.l10n.t('Not run: the sandbox exchange did not start (see the TradeReq output).');
  const origin = new URL(baseUrl).origin;
  const { sandboxEnvironment, sandboxKeys } = lazy();
  return {
    environmentFor: async (uri) => {
      await environments.ready(uri);
      return sandboxEnvironment(
        baseUrl,
        environments.all(uri).find((e) => e.name === 'sandbox'),
      );
    },
    key: sandboxKeys(origin),
    // Nothing real can be ordered from the sandbox, and nothing else is sent to.
    confirm: () => true,
    onlyOrigin: origin,
  };
}

/** The embedded sandbox: the one running, else started on its usual port (or a free one when that is taken). */
async function startedSandbox(run: vscode.TestRun, parts: RunParts): Promise<string | undefined> {
  if (parts.sandbox.handle) return parts.sandbox.handle.baseUrl;
  try {
    await parts.sandbox.start(true);
  } catch (e) {
    parts.log.error(`the sandbox did not start: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
  const baseUrl = parts.sandbox.handle!.baseUrl;
  run.appendOutput(
    vscode.l10n.t('Started the sandbox exchange at {0} ("TradeReq: Stop Sandbox" stops it).', baseUrl) + '\r\n',
  );
  return baseUrl;
}

/**
 * One question per run, at the first order that needs confirmation (a "confirm" environment or
 * `# @confirm`): the answer holds for the rest of the run; no answer sends no order.
 */
function oncePerRun(log: vscode.LogOutputChannel): Target['confirm'] {
  let answer: Promise<boolean> | undefined;
  return (resolved, order) =>
    (answer ??= (async () => {
      const send = vscode.l10n.t('Send Orders in This Run');
      const detail = vscode.l10n.t(
        'The first is {0}. You are asked once for this run; without this confirmation no order is sent.',
        order,
      );
      try {
        const question = vscode.l10n.t(
          'Run tests against "{0}" ({1})? They send orders.',
          resolved.environment.name,
          resolved.origin,
        );
        return (await vscode.window.showWarningMessage(question, { modal: true, detail }, send)) === send;
      } catch (e) {
        log.warn(
          `the confirmation dialog could not be shown (${e instanceof Error ? e.message : String(e)}); no order sent`,
        );
        return false;
      }
    })());
}

/** A result in the Testing view: a failure's message at its # @expect line (else the request), with the answer. */
function report(parts: RunParts, run: vscode.TestRun, item: vscode.TestItem, uri: vscode.Uri, r: CaseResult): void {
  const answer = r.response ? `\n\n${vscode.l10n.t('Response:')}\n${r.response}` : '';
  const at = (range: { startLine: number; startChar: number; endLine: number; endChar: number } | undefined) =>
    new vscode.Location(uri, toRange(range ?? r.case.range).start);
  const messages = messagesOf(r, at, answer);
  // The summary beside the request in the editor; the request and the answer in the test's output.
  const crlf = (text: string): string => text.replace(/\r?\n/g, '\r\n');
  run.appendOutput(crlf(`${r.case.label}: ${r.summary}`) + '\r\n', at(undefined), item);
  const detail = [
    r.request && `${vscode.l10n.t('Request:')}\n${r.request}`,
    r.response && `${vscode.l10n.t('Response:')}\n${r.response}`,
  ].filter(Boolean);
  if (detail.length > 0) run.appendOutput(crlf(detail.join('\n\n')) + '\r\n\r\n', undefined, item);
  const state =
    r.verdict === 'passed' || r.verdict === 'skipped' ? r.verdict : r.verdict === 'failed' ? 'failed' : 'errored';
  record(
    parts,
    run,
    item,
    {
      state,
      messages:
        state === 'passed'
          ? []
          : state === 'skipped'
            ? [{ text: r.summary }]
            : messages.map((m) => ({
                text: m.text,
                line: m.location.range.start.line,
                ...(m.diff && { expectedOutput: m.diff.expected, actualOutput: m.diff.actual }),
              })),
    },
    r.durationMs,
    messages,
  );
}

/**
 * Each unmet expectation at its line (a snapshot's as VS Code's diff between the snapshot and the
 * answer, whose message keeps the first line: the editor shows the rest), else the failure's lines.
 */
function messagesOf(
  r: CaseResult,
  at: (range: CaseResult['problemRange']) => vscode.Location,
  answer: string,
): (Located & { readonly location: vscode.Location })[] {
  const unmet = r.expectations.filter((e) => !e.passed);
  if (unmet.length === 0) return [{ text: failureLines(r).join('\n') + answer, location: at(r.problemRange) }];
  return unmet.map((e) =>
    e.diff?.snapshot
      ? { text: expectedGot(e.text, e.actual.split('\n')[0] ?? ''), location: at(e.range), diff: e.diff }
      : { text: `${expectedGot(e.text, e.actual)}\n${r.summary}${answer}`, location: at(e.range), diff: e.diff },
  );
}

function expectedGot(expected: string, actual: string): string {
  return vscode.l10n.t('Expected {0}, got {1}', expected, actual);
}

function record(
  parts: RunParts,
  run: vscode.TestRun,
  item: vscode.TestItem,
  result: RecordedResult,
  durationMs?: number,
  located?: readonly Located[],
): void {
  parts.results.set(resultKey(item), result);
  const messages = (located ?? result.messages.map((m): Located => ({ text: m.text }))).map((m) => {
    const message = m.diff
      ? vscode.TestMessage.diff(m.text, m.diff.expected, m.diff.actual)
      : new vscode.TestMessage(m.text);
    if (m.diff?.snapshot) message.contextValue = SNAPSHOT_MESSAGE;
    message.location = m.location;
    return message;
  });
  if (result.state === 'started') run.started(item);
  else if (result.state === 'passed') run.passed(item, durationMs);
  else if (result.state === 'skipped') run.skipped(item);
  else if (result.state === 'failed') run.failed(item, messages, durationMs);
  else run.errored(item, messages, durationMs);
}

/** A message at its place; a snapshot's with the snapshot and the answer for VS Code's diff editor. */
interface Located {
  readonly text: string;
  readonly location?: vscode.Location;
  readonly diff?: CheckedExpectation['diff'];
}
