/**
 * Runs a file's requests as tests, in order, through the one pipeline (so chaining by
 * `{{NAME.response.PATH}}` works): each result reported as it comes. A refusal (rate-limit gate,
 * key not bound to the origin, no confirmation) stops the file's run, since what follows would go
 * the same way, and so does a connection refused (nothing answers there: the rest of the file, and
 * of the run when the caller shares `unreachable`, is not run against it); cancelling stops it
 * between requests (a request already sent is never cut off).
 * Every result is masked before anyone sees it: a listen key an answer of the run gave is shown
 * only masked, in every report alike.
 */
import type { NamedEnvironment } from '../env/constants';
import type { Range, TradeReqDocument } from '../format/model';
import type { ResolvedRequest } from '../format/resolve';
import { hideListenKeys, listenKeysOf } from '../request/listen-keys';
import { resolveIn } from '../request/prepare';
import { runRequest, type PipelineDeps } from '../request/pipeline';
import { neededByText, type TestCase } from './cases';
import { CANCELLED, without, type Judged } from './judge';
import type { RunPace } from './pace';
import { judgeWithSnapshots } from './snapshot';
import type { SnapshotStore } from './snapshot-store';
import type { CaseResult } from './verdict';

export interface RunDeps {
  /** The pipeline's parts: sender, budget, clock, keys, confirmation. */
  readonly pipeline: Omit<PipelineDeps, 'responses'>;
  readonly environment: NamedEnvironment;
  /** Responses of named requests of this file sent earlier in the run, for `{{NAME.response.PATH}}`. */
  readonly responses: PipelineDeps['responses'];
  /** A sandbox run sends only there: a request to any other origin is refused before anything is sent. */
  readonly onlyOrigin?: string;
  readonly cancelled?: () => boolean;
  readonly now?: () => number;
  /** The file's snapshots, for `# @expect snapshot` (undefined: the file is not on disk, such a check fails). */
  readonly snapshots?: SnapshotStore;
  /**
   * Origins where nothing answered (the connection was refused) earlier in the run, shared by the
   * caller across files: a request that goes to one is not run, nor the rest of its file.
   */
  readonly unreachable?: Set<string>;
  /** A paced run (pace.ts): asked before each request is sent and told each answer; shared across files. */
  readonly pace?: RunPace;
  /**
   * Why `c` is not sent though it could be: errors the check step finds in it (the shell checks, as
   * this folder imports no check), with where the first is; undefined sends it.
   */
  checkFirst?(c: TestCase): { readonly summary: string; readonly range?: Range } | undefined;
  /** The shell's line for the request that found nothing answering at `origin`; undefined keeps the send's. */
  nothingAnswers?(origin: string): string | undefined;
  onStart?(c: TestCase): void;
  onResult?(r: CaseResult): void;
}

/** Runs `cases` (requests of `doc`, in file order); resolves to every case's result, skipped ones included. */
export async function runCases(
  doc: TradeReqDocument,
  cases: readonly TestCase[],
  deps: RunDeps,
): Promise<CaseResult[]> {
  const now = deps.now ?? Date.now;
  const results: CaseResult[] = [];
  const run: RunState = { ...deps, unreachable: deps.unreachable ?? new Set<string>(), credentials: new Set() };
  // Why the rest of the file is not run, once something stopped it.
  let stop: string | undefined;
  for (const c of [...cases].sort((a, b) => a.index - b.index)) {
    const start = now();
    let judged: Judged;
    if (deps.cancelled?.()) judged = without(c, 'cancelled', CANCELLED);
    else if (stop) judged = without(c, 'after-refusal', stop);
    else if (c.skip) judged = without(c, 'websocket', `not run: ${c.skip}`);
    else if (c.dataProblem !== undefined)
      judged = { ...without(c, 'bad-input', `not sent: ${c.dataProblem}`), problemRange: c.data?.range };
    else ({ judged, stop } = await runOrSkip(doc, c, run));
    // A paced run's wait before sending is not the request's time: reports give it apart.
    const result = {
      ...masked(judged, [...run.credentials]),
      durationMs: Math.max(0, now() - start - (judged.pacedMs ?? 0)),
    };
    results.push(result);
    deps.onResult?.(result);
  }
  return results;
}

/** A run of a file's cases: where nothing answered, and the credentials its answers gave (to mask them). */
type RunState = RunDeps & { readonly unreachable: Set<string>; readonly credentials: Set<string> };

/** Runs `c` unless nothing answers where it goes; with what stops the rest of the file, if anything. */
async function runOrSkip(
  doc: TradeReqDocument,
  c: TestCase,
  deps: RunState,
): Promise<{ judged: Judged; stop?: string }> {
  // Resolved once, only when something asks where it goes (an unreachable origin, a sandbox run, a paced one).
  const asked = deps.unreachable.size > 0 || deps.onlyOrigin !== undefined || deps.pace !== undefined;
  const target = asked ? targetOf(doc, c, deps) : undefined;
  if (target !== undefined && deps.unreachable.has(target.origin)) {
    const judged = without(c, 'after-refusal', nothingAnswered(target.origin));
    return { judged, stop: judged.summary };
  }
  deps.onStart?.(c);
  const { judged, unreachable, stop } = await runOne(doc, c, deps, target);
  if (stop !== undefined) return { judged, stop };
  if (unreachable !== undefined) {
    deps.unreachable.add(unreachable);
    const summary = deps.nothingAnswers?.(unreachable) ?? judged.summary;
    return { judged: { ...judged, summary }, stop: nothingAnswered(unreachable) };
  }
  if (judged.verdict !== 'refused' || judged.reason === 'elsewhere') return { judged };
  // The summary starts with "refused: ", which the reason already says.
  return { judged, stop: `not run: an earlier request was refused (${judged.summary.replace(/^refused: /, '')})` };
}

function nothingAnswered(origin: string): string {
  return `not run: nothing answered at ${origin} earlier in this run`;
}

/** Where `c` goes (origin, method and URL), when it resolves now. */
function targetOf(doc: TradeReqDocument, c: TestCase, deps: RunDeps): ResolvedRequest | undefined {
  const request = doc.requests[c.index];
  if (!request) return undefined;
  const resolved = resolveIn(doc, request, deps.environment, {
    response: (name) => deps.responses.get(name),
    variables: c.row?.values,
  });
  return resolved.ok ? resolved.value : undefined;
}

/** A case's result, and the origin when nothing answered there (connection refused: nothing was sent). */
async function runOne(
  doc: TradeReqDocument,
  c: TestCase,
  deps: RunState,
  target: ResolvedRequest | undefined,
): Promise<{ judged: Judged; unreachable?: string; stop?: string }> {
  const request = doc.requests[c.index];
  if (!request) return { judged: without(c, 'bad-input', 'not sent: the request is no longer in the file') };
  // A request the parser could not read whole is not what its author meant (as for tradereq send).
  const unread = doc.diagnostics.find(
    (d) => d.severity === 'error' && d.range.startLine >= c.range.startLine && d.range.startLine <= c.range.endLine,
  );
  if (unread)
    return { judged: { ...without(c, 'bad-input', `not sent: ${unread.message}`), problemRange: unread.range } };
  const blocked = deps.checkFirst?.(c);
  if (blocked) return { judged: { ...without(c, 'bad-input', blocked.summary), problemRange: blocked.range } };
  if (deps.onlyOrigin !== undefined && target !== undefined && target.origin !== deps.onlyOrigin)
    return {
      judged: {
        ...without(
          c,
          'elsewhere',
          `refused: a run against the sandbox sends only to it (${deps.onlyOrigin}), and this request goes to ${target.origin}; nothing was sent`,
        ),
        request: `${target.method} ${target.url}`,
      },
    };
  const notSelected = c.neededBy && `not selected: it runs because ${neededByText(c.neededBy)}`;
  const paced = deps.pace && target ? await deps.pace.before(c, target, deps.pipeline.key) : undefined;
  if (paced?.go === false) return { judged: paced.judged, stop: paced.judged.summary };
  const result = await runRequest(doc, request, deps.environment, {
    ...deps.pipeline,
    ...(paced && { key: paced.key }),
    responses: deps.responses,
    notSelected,
    variables: c.row?.values,
  });
  const stop = deps.pace?.after(result);
  const report = result.ok ? result.value.report : undefined;
  const noAnswer = report?.outcome === 'not-sent' && report.failure?.code === 'ECONNREFUSED';
  // Every answer's, not only the named ones kept for chaining (a store keeps them masked).
  for (const k of listenKeysOf(report, [])) deps.credentials.add(k);
  const judged = {
    ...(await judgeWithSnapshots(c, result, deps.snapshots, [...deps.credentials])),
    ...(paced?.waitedMs && { pacedMs: paced.waitedMs }),
  };
  return { judged, unreachable: noAnswer ? report.prepared.origin : undefined, stop };
}

/** `r` with every credential of the run's answers masked in what it shows. */
function masked(r: Judged, keys: readonly string[]): Judged {
  if (keys.length === 0) return r;
  const hide = (text: string): string => hideListenKeys(text, keys);
  return {
    ...r,
    summary: hide(r.summary),
    expectations: r.expectations.map((e) => ({
      ...e,
      text: hide(e.text),
      actual: hide(e.actual),
      ...(e.diff && { diff: { ...e.diff, expected: hide(e.diff.expected), actual: hide(e.diff.actual) } }),
    })),
    ...(r.request !== undefined && { request: hide(r.request) }),
    ...(r.response !== undefined && { response: hide(r.response) }),
  };
}
