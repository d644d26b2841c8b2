import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Budget } from '../core/budget/budget';
import { defaultStateDir, FileStateStore } from '../core/budget/state';
import { ClockSync } from '../core/clock/sync';
import type { NamedEnvironment } from '../core/env/constants';
import { environmentLabel, isLoopbackOrigin } from '../core/env/demo';
import { range } from '../core/format/model';
import type { Sender } from '../core/net/send';
import { caseTitle, neededByText, selectCases, testCases, withRows, type TestCase } from '../core/testing/cases';
import { dataLoader } from '../core/testing/data';
import { prettyFile, report } from '../core/testing/reporters';
import { summaryLine, type CaseResult, type FileReport, type RunReport } from '../core/testing/verdict';
import { runCases } from '../core/testing/run';
import { refusalBeforeSend } from '../core/check/before-send';
import { SnapshotStore } from '../core/testing/snapshot-store';
import { DEFAULT_PACE, Pacer } from '../core/testing/pace';
import { sandboxDeployment, sandboxEnvironment, sandboxKeys } from '../core/testing/sandbox';
import type { Sandbox } from '../sandbox';
import { parseCommand, timeoutFlag } from './args';
import { BOUNDS, OPTION_MAX, clip } from '../core/bounds';
import { CLI, INPUT, NETWORK, TEST } from './messages';
import { keySource } from './prepare';
import { checkErrors, cliSender, EXIT, terminalConfirm, worstExit } from './send';
import { readRequestStdin, stdinDataRefused, STDIN_PATH } from './stdin';
import { terminalSafe } from './terminal';
import { checkReportPaths, findRequestFiles, reporterSpecs, type FoundFile, type ReporterSpec } from './test-files';
import { UsageError, type Io } from './usage';
import { cliNetwork, NETWORK_OPTIONS } from './network';
import { readRequestFile, selectEnvironment, type LoadedFile } from './workspace';

const TEST_OPTIONS = {
  sandbox: { type: 'boolean' },
  env: { type: 'string' },
  grep: { type: 'string' },
  reporter: { type: 'string', multiple: true },
  output: { type: 'string', multiple: true },
  yes: { type: 'boolean' },
  'update-snapshots': { type: 'boolean' },
  'no-clock-sync': { type: 'boolean' },
  'no-check': { type: 'boolean' },
  timeout: { type: 'string' },
  'connect-timeout': { type: 'string' },
  pace: { type: 'string' },
  bail: { type: 'boolean' },
  ...NETWORK_OPTIONS,
} as const;

interface Plan {
  readonly files: readonly FoundFile[];
  readonly grep?: RegExp;
  readonly reporters: readonly ReporterSpec[];
  readonly env?: string;
  readonly sandbox: boolean;
  readonly yes: boolean;
  readonly updateSnapshots: boolean;
  readonly clockSync: boolean;
  /** Whether a request with errors that check finds is refused (without --no-check). */
  readonly check: boolean;
  readonly sender: Sender;
  /** --pace: the fraction of each rate-limit budget a run stays under. */
  readonly pace?: number;
  readonly bail: boolean;
  /** `test -`: the one request file is read from standard input (stdin.ts). */
  readonly stdin: boolean;
}

export async function testCommand(args: string[], io: Io): Promise<number> {
  const plan = parsePlan(args, io);
  if (!plan) return 0;
  const sandbox = plan.sandbox ? new Sandboxes() : undefined;
  try {
    const fromStdin = plan.stdin ? await readRequestStdin(io) : undefined;
    const loaded = plan.files.map((f) => loadFile(f, io, plan, fromStdin));
    const total = loaded.reduce((n, f) => n + f.cases.length, 0);
    if (total === 0) throw new UsageError(TEST.noRequest(plan.grep?.source, plan.files.length));
    const unsaved: string[] = [];
    const run = await runAll(loaded, plan, io, sandbox, unsaved);
    return finish(run, plan, io, unsaved.length > 0);
  } finally {
    await plan.sender.close();
    await sandbox?.close();
  }
}

function parsePlan(args: string[], io: Io): Plan | undefined {
  const { values, positionals, tokens } = parseCommand('test', withPaceValue(args), TEST_OPTIONS);
  if (values.help) {
    io.out(
      TEST.help({
        pace: DEFAULT_PACE,
        maxPaceWaitSeconds: BOUNDS.paceWaitMs / 1000,
        maxTimeoutMs: OPTION_MAX.timeoutMs,
        network: NETWORK.help,
      }),
    );
    return undefined;
  }
  const reporters = reporterSpecs(tokens, io.cwd);
  const timeout = timeoutFlag('timeout', values.timeout);
  const connectTimeout = timeoutFlag('connect-timeout', values['connect-timeout']);
  let grep: RegExp | undefined;
  try {
    grep = values.grep === undefined ? undefined : new RegExp(values.grep, 'i');
  } catch {
    throw new UsageError(TEST.notARegExp(values.grep!));
  }
  const stdin = stdinPath(positionals, values['update-snapshots'] === true);
  const files = stdin
    ? [{ path: resolve(io.cwd, STDIN_PATH), display: STDIN_PATH }]
    : findRequestFiles(positionals.length > 0 ? positionals : ['.'], io.cwd);
  checkReportPaths(reporters, files);
  const sender = cliSender(timeout, connectTimeout, cliNetwork(values, io.env));
  const flags = {
    env: values.env,
    sandbox: values.sandbox === true,
    yes: values.yes === true,
    updateSnapshots: values['update-snapshots'] === true,
    bail: values.bail === true,
  };
  const pace = paceFlag(values.pace);
  const check = !values['no-check'];
  return { ...flags, pace, files, grep, reporters, clockSync: !values['no-clock-sync'], check, sender, stdin };
}

/** Whether the PATH is `-` (standard input): then the only one, and with no snapshot to write (it has no name). */
function stdinPath(positionals: readonly string[], updateSnapshots: boolean): boolean {
  if (!positionals.includes(STDIN_PATH)) return false;
  if (positionals.length > 1) throw new UsageError(INPUT.onlyStdin);
  if (updateSnapshots) throw new UsageError(TEST.noSnapshotsFromStdin);
  return true;
}

/** `--pace` alone is the default fraction (parseArgs knows no option with an optional value); `--pace 0.5` gives one. */
function withPaceValue(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      out.push(...args.slice(i));
      break;
    }
    if (arg !== '--pace') out.push(arg);
    // An empty value is --pace's own (and refused), not a path that follows it.
    else if (/^(-?[\d.]+)?$/.test(args[i + 1] ?? '-')) out.push(`--pace=${args[++i]}`);
    else out.push(`--pace=${DEFAULT_PACE}`);
  }
  return out;
}

/** --pace's fraction of each budget: more than 0, at most 1. */
function paceFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const fraction = /^(\d{1,3}(\.\d{1,6})?|\.\d{1,6})$/.test(value) ? Number(value) : NaN;
  if (fraction > 0 && fraction <= 1) return fraction;
  throw new UsageError(TEST.pace(clip(value, 40), DEFAULT_PACE));
}

interface Loaded {
  readonly file: FoundFile;
  readonly loaded?: LoadedFile;
  readonly cases: readonly TestCase[];
  /** Why the file cannot run at all (unreadable, too large, its environment unknown). */
  readonly problem?: string;
}

function loadFile(file: FoundFile, io: Io, plan: Plan, fromStdin: LoadedFile | undefined): Loaded {
  try {
    const loaded = fromStdin ?? readRequestFile(file.path, io.cwd);
    const selected = selectCases(loaded.doc, testCases(loaded.doc), plan.grep);
    // A `# @data` request is a case per row of its file (docs/format.md, Data files).
    const cases = withRows(selected, fromStdin ? stdinDataRefused : dataLoader(loaded.path));
    for (const c of selected)
      if (c.neededBy) io.err(CLI.said(TEST.alsoRuns(caseTitle(c), file.display, neededByText(c.neededBy))));
    return { file, loaded, cases };
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    const whole: TestCase = {
      id: 'file',
      index: -1,
      label: TEST.wholeFile,
      range: range(0, 0, 0, 0),
      expectRanges: [],
    };
    return { file, cases: [whole], problem: e.message };
  }
}

/** The sandboxes of a --sandbox run: one per deployment the files' environments name, each started when first needed. */
class Sandboxes {
  private readonly started = new Map<string, Promise<Sandbox>>();

  of(deployment: string): Promise<Sandbox> {
    let sandbox = this.started.get(deployment);
    if (sandbox === undefined) {
      // The sandbox exchange (and full zod with it) loads only for --sandbox: a bundle of its own.
      const { startSandbox } = require('../sandbox') as typeof import('../sandbox');
      sandbox = startSandbox({ port: 0, deployment });
      this.started.set(deployment, sandbox);
    }
    return sandbox;
  }

  async close(): Promise<void> {
    for (const sandbox of this.started.values()) await (await sandbox.catch(() => undefined))?.close();
  }
}

/** Runs every file; a snapshot file that could not be written is said on standard error and added to `unsaved`. */
async function runAll(
  files: readonly Loaded[],
  plan: Plan,
  io: Io,
  sandbox: Sandboxes | undefined,
  unsaved: string[],
): Promise<RunReport> {
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const store = new FileStateStore(defaultStateDir(io.env));
  const budget = new Budget(store);
  const net = {
    budget,
    clock: new ClockSync(store),
    sender: plan.sender,
    clockSync: plan.clockSync,
    unreachable: new Set<string>(),
    unsaved,
    pace: plan.pace !== undefined || plan.bail ? pacer(plan, budget) : undefined,
  };
  const progress = progressLine(files.reduce((n, f) => n + f.cases.length, 0));
  const streamed = plan.reporters.some((r) => r.name === 'pretty' && r.file === undefined);
  const reports: FileReport[] = [];
  for (const f of files) {
    if (f.cases.length === 0) continue;
    const fileReport = await runFile(f, plan, io, sandbox, net, progress);
    reports.push(fileReport);
    progress?.clear();
    if (streamed) io.out(prettyFile(fileReport));
  }
  progress?.clear();
  const pace = net.pace?.summary();
  return { files: reports, durationMs: Date.now() - started, startedAt, ...(pace && { pace }) };
}

/** --pace and --bail: one pacer for the whole run, so that a ban or --bail stops every file after it. */
function pacer(plan: Plan, budget: Budget): Pacer {
  return new Pacer({ fraction: plan.pace, bail: plan.bail, budget, sleep: (ms) => delay(ms) });
}

type Net = Pick<Parameters<typeof runCases>[2]['pipeline'], 'budget' | 'clock' | 'sender' | 'clockSync'> & {
  /** Where nothing answered earlier in the run: requests there are not run (core/testing/run.ts). */
  readonly unreachable: Set<string>;
  /** Snapshot files that could not be written (exit 2). */
  readonly unsaved: string[];
  readonly pace: Pacer | undefined;
};

async function runFile(
  f: Loaded,
  plan: Plan,
  io: Io,
  sandboxes: Sandboxes | undefined,
  net: Net,
  progress: Progress | undefined,
): Promise<FileReport> {
  const start = Date.now();
  let environment: NamedEnvironment | undefined;
  let sandbox: Sandbox | undefined;
  let problem = f.problem;
  try {
    if (f.loaded) ({ environment, sandbox } = await environmentFor(f.loaded, plan, io, sandboxes));
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    problem = e.message;
  }
  if (problem !== undefined || !f.loaded || !environment) {
    const cases = f.cases.map((c) => badFile(c, problem ?? ''));
    return { path: f.file.display, environment: environment?.name ?? plan.env ?? '-', cases, durationMs: 0 };
  }
  const origin = sandbox ? new URL(sandbox.baseUrl).origin : undefined;
  const { unreachable, unsaved, pace, ...pipeline } = net;
  const snapshots = snapshotStore(f, plan);
  const file = { ...f.loaded, displayPath: f.file.display };
  const cases = await runCases(file.doc, f.cases, {
    pipeline: {
      ...pipeline,
      key: origin ? sandboxKeys(origin) : keySource({ flagOrigin: undefined }, io.env),
      confirm: confirmer(plan),
    },
    environment,
    responses: new Map<string, unknown>(),
    onlyOrigin: origin,
    unreachable,
    pace,
    nothingAnswers: sandbox ? undefined : nothingAnswers,
    onStart: (c) => progress?.show(`${f.file.display}: ${c.label}`),
    snapshots,
    // A case whose request has errors that check finds fails as bad input, with them (docs/cli.md, Commands).
    checkFirst: plan.check
      ? refusalBeforeSend(file.doc, environment, (errors) => TEST.notSent(checkErrors({ file }, errors)))
      : undefined,
  });
  await saveSnapshots(snapshots, io, unsaved);
  const where = environmentLabel(environment.name, new URL(environment.baseUrl).origin);
  return { path: f.file.display, environment: where, cases, durationMs: Date.now() - start };
}

function snapshotStore(f: Loaded, plan: Plan): SnapshotStore {
  return new SnapshotStore(f.file.path, {
    update: plan.updateSnapshots,
    shown: f.file.display,
    howToUpdate: TEST.howToUpdate,
  });
}

/** Writes what the file's run changed in its snapshots, and says so on standard error (standard output may be a report). */
async function saveSnapshots(store: SnapshotStore, io: Io, unsaved: string[]): Promise<void> {
  const saved = await store.save();
  if ('error' in saved) {
    io.err(CLI.said(TEST.notSaved(saved.error)));
    unsaved.push(store.path);
  } else if (saved.created + saved.changed > 0)
    io.err(CLI.said(TEST.snapshotsWritten(store.shown, saved.created, saved.changed)));
}

/** Nothing answers on loopback: the sandbox is not running, and the next step is to start one. */
function nothingAnswers(origin: string): string | undefined {
  if (!isLoopbackOrigin(origin)) return undefined;
  return TEST.nothingAnswers(origin);
}

function badFile(c: TestCase, message: string): CaseResult {
  return {
    case: c,
    verdict: 'failed',
    reason: 'bad-input',
    summary: TEST.notRun(message),
    expectations: [],
    durationMs: 0,
  };
}

/**
 * With --sandbox: the sandbox playing the deployment of --env (default the file's "sandbox"), with
 * that environment's variables; else as for send.
 */
async function environmentFor(
  file: LoadedFile,
  plan: Plan,
  io: Io,
  sandboxes: Sandboxes | undefined,
): Promise<{ environment: NamedEnvironment; sandbox?: Sandbox }> {
  if (!sandboxes) return { environment: selectEnvironment(file.path, plan.env, io.env) };
  const base = selectEnvironment(file.path, plan.env ?? 'sandbox', {});
  const sandbox = await sandboxes.of(sandboxDeployment(base));
  return { environment: sandboxEnvironment(sandbox.baseUrl, base, sandbox.wsUrl), sandbox };
}

/** A sandbox run confirms by itself (nothing real can be ordered); otherwise --yes, or a question in a terminal. */
function confirmer(
  plan: Plan,
): (resolved: { environment: NamedEnvironment; origin: string }, order: string) => Promise<boolean> {
  const ask = terminalConfirm(plan.yes);
  return async (resolved, order) => plan.sandbox || (await ask(resolved, order));
}

interface Progress {
  show(text: string): void;
  clear(): void;
}

/** "[3/17] examples/orders.tradereq: Buy": one line on a terminal, rewritten in place; nothing elsewhere. */
function progressLine(total: number): Progress | undefined {
  if (process.stderr.isTTY !== true) return undefined;
  let n = 0;
  const width = Math.max(20, (process.stderr.columns ?? 80) - 1);
  return {
    show: (text) => {
      n++;
      process.stderr.write('\r\x1b[2K' + terminalSafe(`[${n}/${total}] ${text}`).slice(0, width));
    },
    clear: () => void process.stderr.write('\r\x1b[2K'),
  };
}

/** Writes each report, then the summary; the exit code is the worst of any request's (as for send). */
function finish(run: RunReport, plan: Plan, io: Io, snapshotsUnsaved: boolean): number {
  let unwritten = snapshotsUnsaved;
  for (const spec of plan.reporters) {
    if (spec.file === undefined) {
      if (spec.name !== 'pretty') io.out(report(spec.name, run));
      continue;
    }
    const failure = writeReport(spec.file, report(spec.name, run));
    if (failure !== undefined) io.err(CLI.said(TEST.reportNotWritten(spec.name, failure)));
    unwritten ||= failure !== undefined;
  }
  const toStdout = plan.reporters.find((r) => r.file === undefined);
  if (toStdout?.name === 'pretty') io.out(summaryLine(run));
  else (toStdout ? io.err : io.out)(summaryLine(run));
  if (plan.pace === undefined) sayPace(run, io);
  const exits = run.files.flatMap((f) => f.cases.map(exitFor));
  return worstExit(unwritten ? [...exits, EXIT.badInput] : exits);
}

/** An unpaced run the gate cut short: --pace named once, not under every request it kept back. */
function sayPace(run: RunReport, io: Io): void {
  let refused = 0;
  let notRun = 0;
  for (const f of run.files) {
    let gated = false;
    for (const r of f.cases) {
      if (r.reason === 'gate') [refused, gated] = [refused + 1, true];
      else if (gated && r.reason === 'after-refusal') notRun++;
    }
  }
  if (refused > 0) io.err(CLI.said(TEST.gateRefused(refused, notRun)));
}

/** Writes a report (its paths were checked before the run); what went wrong when it cannot. */
function writeReport(file: string, text: string): string | undefined {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, terminalSafe(text));
    return undefined;
  } catch (e) {
    return `${file} (${(e as NodeJS.ErrnoException).code ?? String(e)})`;
  }
}

function exitFor(r: CaseResult): number {
  switch (r.verdict) {
    case 'passed':
    case 'skipped':
      return EXIT.ok;
    case 'failed':
      return r.reason === 'bad-input' || r.reason === 'no-key' ? EXIT.badInput : EXIT.rejected;
    case 'unknown':
      return EXIT.unknown;
    case 'refused':
      return EXIT.refused;
  }
}
