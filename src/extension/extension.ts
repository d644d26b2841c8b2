/**
 * Activation: what VS Code needs to know before anything is used (the commands, the providers,
 * the Testing view's controller), and nothing else. Each of them loads dist/language.js
 * (language.ts: the parser, the check step, the catalogs, the services) on its first use, as does
 * the first request file open, whose diagnostics it makes.
 */
import * as vscode from 'vscode';
import { monotonicMs } from '../core/node-lazy';
import type { PanelState } from '../core/panel/protocol';
import type { Handler } from './commands';
import type { Language } from './language';
import { language } from './lazy';
import { registerProviders } from './providers';
import type { StreamsState } from './streams';
import { Testing, type TestFiles } from './testing';

/** Set by the bundle's first and last lines (esbuild banner and footer): when loading started and ended. */
declare const __tradereqLoadStart: number | undefined;
declare let __tradereqLoadEnd: number | undefined;

/** What activate() returns, for the activation benchmark: the extension's own cost, loading its code plus activate(). */
export interface TradeReqApi {
  readonly activationMs: number;
  readonly loadMs: number;
  readonly activateMs: number;
  /** What dist/language.js cost once loaded (undefined before): loading its code, then making its services. */
  languageMs(): { readonly loadMs: number; readonly openMs: number } | undefined;
  /** What the response panel shows now (tests read it; it holds nothing secret). */
  panelState(): PanelState | undefined;
  /** A message as the panel's page posts it (tests): validated and handled as the page's own. */
  panelMessage(message: unknown): void;
  /** The live connections as the stream view shows them, with their newest pushes (nothing secret). */
  streamsState(): StreamsState;
  /** Where a document's diagnostics were last computed: in a worker thread (large files) or on the main one. */
  diagnosticsRunner(uri: string): 'worker' | 'main' | undefined;
  /** The Testing view's controller, its run profiles and what the last run reported (tests read them). */
  readonly testing: Testing;
  /** The environment picker's items: each environment with the folder of its tradereq.env.json. */
  environmentChoices(): Promise<readonly { label: string; description?: string; detail?: string }[]>;
  /** The rate-limit state file sends count in (tests scan its folder): fixed by the first send. */
  statePath(): string;
}

/** Registers what VS Code asks for before any use; nothing slow happens here (dist/language.js loads on first use). */
export function activate(context: vscode.ExtensionContext): TradeReqApi {
  const activateStart = monotonicMs();
  const lensesChanged = new vscode.EventEmitter<void>();
  const testing = new Testing((): TestFiles => loaded.get().testFiles);
  const loaded = new LanguageLoader(context, testing, lensesChanged);
  context.subscriptions.push(
    testing,
    loaded,
    lensesChanged,
    ...registerCommands(context, (id) => loaded.get().command(id)),
    ...registerProviders(() => loaded.get().providers, lensesChanged.event),
    loadWithFirstRequestFile(() => loaded.get()),
  );
  const activateMs = monotonicMs() - activateStart;
  const loadMs =
    typeof __tradereqLoadStart === 'number' && typeof __tradereqLoadEnd === 'number'
      ? __tradereqLoadEnd - __tradereqLoadStart
      : 0;
  return {
    activationMs: loadMs + activateMs,
    loadMs,
    activateMs,
    languageMs: () => loaded.cost,
    panelState: () => loaded.get().panelState(),
    panelMessage: (message) => loaded.get().panelMessage(message),
    streamsState: () => loaded.get().streamsState(),
    diagnosticsRunner: (uri) => loaded.get().diagnosticsRunner(uri),
    testing,
    environmentChoices: () => loaded.get().environmentChoices(),
    statePath: () => loaded.get().statePath(),
  };
}

/** dist/language.js and the services it makes, once: the first use loads it (and pays for it). */
class LanguageLoader implements vscode.Disposable {
  private opened: Language | undefined;
  /** What loading it cost: its code, then its services (the first provider call's wait). */
  cost: { loadMs: number; openMs: number } | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly testing: Testing,
    private readonly lensesChanged: vscode.EventEmitter<void>,
  ) {}

  get(): Language {
    if (this.opened) return this.opened;
    const start = monotonicMs();
    const module = language();
    const loaded = monotonicMs();
    this.opened = module.open(this.context, { testing: this.testing, lensesChanged: this.lensesChanged });
    this.cost = { loadMs: loaded - start, openMs: monotonicMs() - loaded };
    return this.opened;
  }

  dispose(): void {
    this.opened?.dispose();
  }
}

/** The manifest's list of commands (package.json, contributes.commands): the extension's own file. */
interface Manifest {
  readonly contributes: { readonly commands: readonly { readonly command: string }[] };
}

/**
 * Every command package.json contributes, each running its handler from commands.ts's table, which
 * loads with dist/language.js on the first command (test/unit/repo/commands.test.ts keeps the
 * manifest's list and the table the same).
 */
function registerCommands(
  context: vscode.ExtensionContext,
  handler: (id: string) => Handler | undefined,
): vscode.Disposable[] {
  const { commands } = (context.extension.packageJSON as Manifest).contributes;
  return commands.map(({ command: id }) =>
    vscode.commands.registerCommand(id, (...args: unknown[]) => {
      const run = handler(id);
      // A bug, which the test above prevents: the manifest names a command the table does not hold.
      if (run === undefined) throw new Error(`no handler in commands.ts for ${id}`); // l10n-ignore: a bug's report
      return run(...args);
    }),
  );
}

/**
 * The first request file open (at activation, or later) loads dist/language.js in the next turn
 * of the event loop, and its diagnostics check the files open then, when activation's own checks
 * ran before; a workspace with no request file open loads nothing until something is used.
 */
function loadWithFirstRequestFile(load: () => unknown): vscode.Disposable {
  const isRequestFile = (d: vscode.TextDocument): boolean => d.languageId === 'tradereq';
  let timer: NodeJS.Timeout | undefined;
  const soon = (): void => void (timer ??= setTimeout(load, 0));
  if (vscode.workspace.textDocuments.some(isRequestFile)) soon();
  const opened = vscode.workspace.onDidOpenTextDocument((d) => isRequestFile(d) && soon());
  return new vscode.Disposable(() => {
    clearTimeout(timer);
    opened.dispose();
  });
}

export function deactivate(): void {
  // Every disposable is owned by context.subscriptions.
}
