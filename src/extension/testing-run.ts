import * as vscode from 'vscode';
import type { NamedEnvironment } from '../core/env/constants';
import type { TradeReqDocument } from '../core/format/model';
import type { ResolvedRequest } from '../core/format/resolve';
import type { KeySource } from '../core/request/prepare';
import type { TestCase } from '../core/testing/cases';
import { failureLines, type CaseResult } from '../core/testing/verdict';
import type { SandboxHolder } from './commands';
import { toRange } from './documents';
import { editorKeySource } from './editor-keys';
import type { Environments } from './environments';
import type { KeyStore } from './keys';
import { lazy } from './lazy';
import type { Network } from './network';

/** What a run reported for an item, kept for the integration tests (nothing secret: results hold none). */
export interface RecordedResult {
  readonly state: 'started' | 'passed' | 'failed' | 'errored' | 'skipped';
  readonly messages: readonly RecordedMessage[];
}

/** A message as shown: `expected`/`actual` when it opens as a diff (a failed `==`). */
interface RecordedMessage {
  readonly text: string;
  readonly line?: number;
  readonly expected?: string;
  readonly actual?: string;
}

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
}

/** Responses of named requests per file, kept across runs so that a request run alone can chain. */
const responsesByFile = new Map<string, Map<string, unknown>>();

export async function runTests(
  request: vscode.TestRunRequest,
  token: vscode.CancellationToken,
  kind: 'sandbox' | 'environment',
  parts: RunParts,
): Promise<void> {
  const run = parts.controller.createTestRun(request);
  parts.results.clear();
  try {
    const files = await queue(request, parts);
    const target = await targetOf(kind, run, parts);
    for (const [file, items] of files) {
      if (typeof target === 'string' || token.isCancellationRequested) {
        // A run that cannot start says why on each item; a cancelled one skips what is left.
        const result: RecordedResult =
          typeof target === 'string'
            ? { state: 'errored', messages: [{ text: target }] }
            : { state: 'skipped', messages: [{ text: 'not run: the run was cancelled' }] };
        for (const item of items) record(parts, run, item, result);
        continue;
      }
      await runFile(file, items, run, token, target, parts);
    }
  } finally {
    run.end();
  }
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
    const file = item.parent ?? item;
    if (excluded.has(file) || excluded.has(item)) continue;
    const ids = files.get(file) ?? new Set<string>();
    if (item.parent) ids.add(item.id);
    else file.children.forEach((c) => ids.add(c.id));
    files.set(file, ids);
  }
  const byUri = [...files.entries()].sort(([a], [b]) => a.id.localeCompare(b.id));
  return new Map(
    byUri.map(([file, ids]) => {
      const items: vscode.TestItem[] = [];
      file.children.forEach((c) => ids.has(c.id) && !excluded.has(c) && items.push(c));
      return [file, items];
    }),
  );
}

async function runFile(
  file: vscode.TestItem,
  requested: readonly vscode.TestItem[],
  run: vscode.TestRun,
  token: vscode.CancellationToken,
  target: Target,
  parts: RunParts,
): Promise<void> {
  const uri = file.uri!;
  const doc = await parts.fileModel(file);
  // The file as it is now: its items were synced to it, by id.
  const items = requested.map((i) => file.children.get(i.id)).filter((i): i is vscode.TestItem => i !== undefined);
  if (typeof doc === 'string') {
    for (const item of items) record(parts, run, item, { state: 'errored', messages: [{ text: doc }] });
    return;
  }
  for (const item of items) run.enqueued(item);
  const byId = new Map(items.map((i) => [i.id, i]));
  const cases = items.map((i) => parts.caseOf(i)).filter((c): c is TestCase => c !== undefined);
  const responses = responsesByFile.get(uri.toString()) ?? new Map<string, unknown>();
  responsesByFile.set(uri.toString(), responses);
  await lazy().runCases(doc, cases, {
    pipeline: { ...parts.network.get(), clockSync: true, key: target.key, confirm: (r, o) => target.confirm(r, o) },
    environment: await target.environmentFor(uri),
    responses,
    onlyOrigin: target.onlyOrigin,
    cancelled: () => token.isCancellationRequested,
    onStart: (c) => {
      const item = byId.get(c.id)!;
      run.started(item);
      parts.results.set(resultKey(item), { state: 'started', messages: [] });
    },
    onResult: (r) => report(parts, run, byId.get(r.case.id)!, uri, r),
  });
}

async function targetOf(
  kind: 'sandbox' | 'environment',
  run: vscode.TestRun,
  parts: RunParts,
): Promise<Target | string> {
  const { environments } = parts;
  if (kind === 'environment') {
    if (!vscode.workspace.isTrusted)
      return 'Not run: running against an environment needs a trusted workspace (Manage Workspace Trust). Nothing was sent.';
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
  if (baseUrl === undefined) return 'Not run: the sandbox exchange did not start (see the TradeReq output).';
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
  run.appendOutput(`Started the sandbox exchange at ${baseUrl} ("TradeReq: Stop Sandbox" stops it).\r\n`);
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
      const send = 'Send Orders in This Run';
      const detail = `The first is ${order}. You are asked once for this run; without this confirmation no order is sent.`;
      try {
        const question = `Run tests against "${resolved.environment.name}" (${resolved.origin})? They send orders.`;
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
  const answer = r.response ? `\n\nResponse:\n${r.response}` : '';
  const at = (range: { startLine: number; startChar: number; endLine: number; endChar: number } | undefined) =>
    new vscode.Location(uri, toRange(range ?? r.case.range).start);
  const unmet = r.expectations.filter((e) => !e.passed);
  const messages: (Located & { location: vscode.Location })[] = unmet.length
    ? unmet.map((e) => ({
        text: `Expected ${e.text}, got ${e.actual}\n${r.summary}${answer}`,
        location: at(e.range),
        ...(e.diff && { expected: e.diff.expected, actual: e.diff.actual }),
      }))
    : [{ text: failureLines(r).join('\n') + answer, location: at(r.problemRange) }];
  // The summary beside the request in the editor; the request and the answer in the test's output.
  const crlf = (text: string): string => text.replace(/\r?\n/g, '\r\n');
  run.appendOutput(crlf(`${r.case.label}: ${r.summary}`) + '\r\n', at(undefined), item);
  const detail = [r.request && `Request:\n${r.request}`, r.response && `Response:\n${r.response}`].filter(Boolean);
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
            : messages.map(({ location, ...m }) => ({ ...m, line: location.range.start.line })),
    },
    r.durationMs,
    messages,
  );
}

/** A message with where it shows. */
interface Located {
  readonly text: string;
  readonly location: vscode.Location | undefined;
  readonly expected?: string;
  readonly actual?: string;
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
  const shown: readonly Located[] = located ?? result.messages.map((m) => ({ text: m.text, location: undefined }));
  const messages = shown.map((m) => {
    // A failed `==` opens as VS Code's diff of the expected and the actual value.
    const message =
      m.expected !== undefined && m.actual !== undefined
        ? vscode.TestMessage.diff(m.text, m.expected, m.actual)
        : new vscode.TestMessage(m.text);
    message.location = m.location;
    return message;
  });
  if (result.state === 'started') run.started(item);
  else if (result.state === 'passed') run.passed(item, durationMs);
  else if (result.state === 'skipped') run.skipped(item);
  else if (result.state === 'failed') run.failed(item, messages, durationMs);
  else run.errored(item, messages, durationMs);
}

/** `FILE_URI::CASE_ID`: a request item's key in the recorded results. */
export function resultKey(item: vscode.TestItem): string {
  return `${item.uri?.toString() ?? ''}::${item.id}`;
}
