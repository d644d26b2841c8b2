import * as vscode from 'vscode';
import { AnswerDocuments } from './answer-documents';
import { setL10nBundle } from '../core/l10n';
import { monotonicMs } from '../core/node-lazy';
import type { ClockSample } from '../core/clock/clock';
import type { FromPanel, PanelState } from '../core/panel/protocol';
import { AnswerStore } from '../core/request/answer-store';
import { registerCodeLensSupport } from './codelens';
import { registerCommands, SandboxHolder, type Services } from './commands';
import { registerCompletionSupport } from './completion';
import { DiagnosticsManager } from './diagnostics';
import { QuickFixes, registerQuickFixes } from './quick-fixes';
import { Doctor } from './doctor';
import { DocumentModels } from './documents';
import { Environments } from './environments';
import { lazy } from './lazy';
import { History } from './history';
import { registerCurlPaste } from './import-commands';
import { registerHoverSupport } from './hover';
import { KeyStore, warmKeysOfRequestFiles } from './keys';
import { Network } from './network';
import { affectsNetwork } from './proxy-settings';
import { ResponsePanel } from './panel';
import { PanelPresenter } from './panel-presenter';
import { reach } from './milestones';
import { Sending } from './sending';
import { Streams, type StreamsState } from './streams';
import { SignedDocuments, SignedView } from './signed-view';
import { StatusBar } from './statusbar';
import { SettingsCache } from './settings';
import { Symbols } from './symbols';
import { Testing } from './testing';

const SELECTOR: vscode.DocumentSelector = { language: 'tradereq' };

/** Set by the bundle's first and last lines (esbuild banner and footer): when loading started and ended. */
declare const __tradereqLoadStart: number | undefined;
declare let __tradereqLoadEnd: number | undefined;

/** What activate() returns, for the activation benchmark: the extension's own cost, loading its code plus activate(). */
export interface TradeReqApi {
  readonly activationMs: number;
  readonly loadMs: number;
  readonly activateMs: number;
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

/** Wires services and registers providers; nothing slow happens here (files load on first use). */
export function activate(context: vscode.ExtensionContext): TradeReqApi {
  const activateStart = monotonicMs();
  // The core's messages in the display language: VS Code's bundle of it (undefined in English).
  setL10nBundle(vscode.l10n.bundle);
  const s = createServices(context);
  const fixes = new QuickFixes();
  const diagnostics = new DiagnosticsManager(s.models, s.environments, fixes, s.settings, context.extensionUri);
  const statusBar = new StatusBar(s.environments, (origin) => s.network.budgetViewIfLoaded(origin));
  context.subscriptions.push(
    s.testing,
    ...s.disposables,
    diagnostics,
    statusBar,
    s.sending.onDidSend(() => statusBar.refresh()),
    s.sending.onDidSend(() => reach('requestSent')),
    s.environments.onDidChange(() => statusBar.refresh()),
    vscode.window.onDidChangeActiveTextEditor(() => statusBar.refresh()),
    vscode.workspace.onDidChangeConfiguration((e) => affectsNetwork(e) && s.network.settingsChanged()),
    registerCodeLensSupport(SELECTOR, s.models, s.streams),
    ...registerCommands(s),
    registerCompletionSupport(SELECTOR, s.models, s.environments, s.symbols, (uri, r) => s.sending.answerPaths(uri, r)),
    registerHoverSupport(SELECTOR, s.models, s.environments, (uri) => clockSample(s.environments, uri)),
    registerQuickFixes(SELECTOR, fixes),
    registerCurlPaste(SELECTOR, s.environments),
    warmKeysOfRequestFiles(s.keys, s.environments),
  );
  void s.environments.ready().then(() => statusBar.refresh());
  const activateMs = monotonicMs() - activateStart;
  const loadMs =
    typeof __tradereqLoadStart === 'number' && typeof __tradereqLoadEnd === 'number'
      ? __tradereqLoadEnd - __tradereqLoadStart
      : 0;
  return {
    activationMs: loadMs + activateMs,
    loadMs,
    activateMs,
    panelState: () => s.panel.current(),
    panelMessage: (message) => s.panel.receive(message),
    streamsState: () => s.streams.state(),
    diagnosticsRunner: (uri) => diagnostics.runner(uri),
    testing: s.testing,
    environmentChoices: () => s.environments.choices(),
    statePath: () => s.network.statePath(),
  };
}

/** The services the providers and commands share, with everything to dispose of. */
interface Shell extends Services {
  readonly panel: ResponsePanel;
  readonly network: Network;
  readonly settings: SettingsCache;
  readonly testing: Testing;
  readonly disposables: vscode.Disposable[];
}

function createServices(context: vscode.ExtensionContext): Shell {
  const log = vscode.window.createOutputChannel('TradeReq', { log: true });
  const models = new DocumentModels();
  const environments = new Environments(context.workspaceState, log);
  const keys = new KeyStore(context.secrets, log);
  const history = new History(context.workspaceState);
  const network = new Network();
  // The session's answers for {{NAME.response.PATH}}, per file, environment and origin: Send, Sign only and Connect read them.
  const answerStore = new AnswerStore();
  const answers = new AnswerDocuments(history, log);
  const panel = new ResponsePanel(context.extensionUri, log);
  const sending = new Sending({ models, environments, keys, history, network, log, answers: answerStore });
  const presenter = new PanelPresenter(panel, history, network, sending);
  const streams = new Streams({ models, environments, keys, network, log, sink: panel, answers: answerStore });
  const signedView = new SignedView({ models, environments, keys, network, log, answers: answerStore });
  const settings = new SettingsCache();
  const symbols = new Symbols(models, log, settings);
  const signedDocs = new SignedDocuments();
  const sandbox = new SandboxHolder();
  const doctor = new Doctor({ keys, history, network, log });
  const testing = new Testing(models, { environments, keys, network, sandbox, log });
  // Disposed in this order: what sends and shows first (a connection closes its listen key through
  // the network and may post to the panel), the output channel last.
  const disposables = [
    // The panel shows each send, and reports what the user did to the service it concerns.
    sending.onDidSend(({ entry, budget }) => presenter.showEntry(entry, budget)),
    sending.onDidChangeBusy((busy) => presenter.setBusy(busy)),
    panel.onDidAct(panelActions({ history, answers, presenter, sending, streams })),
    streams,
    sending,
    signedDocs,
    answers,
    doctor,
    sandbox,
    panel,
    symbols,
    keys,
    environments,
    models,
    settings,
    network,
    log,
  ];
  return {
    models,
    environments,
    symbols,
    keys,
    sending,
    signedView,
    signedDocs,
    presenter,
    streams,
    answers,
    doctor,
    sandbox,
    log,
    panel,
    network,
    settings,
    testing,
    disposables,
  };
}

/** What the panel's buttons do: each action the panel reports, to the service it concerns. */
function panelActions(s: {
  history: History;
  answers: AnswerDocuments;
  presenter: PanelPresenter;
  sending: Sending;
  streams: Streams;
}): (action: FromPanel) => void {
  return (m) => {
    switch (m.type) {
      case 'ready':
        return s.streams.replay();
      case 'show':
        return s.presenter.showHistoryEntry(m.id);
      case 'queryOrder':
        return void s.sending.queryOrder(m.id);
      case 'sendAgain':
        return void s.sending.sendAgain(m.id);
      case 'copyBody': {
        const body = s.history.find(m.id)?.response?.body;
        if (body !== undefined) void vscode.env.clipboard.writeText(body);
        return;
      }
      case 'unsubscribe':
        return void s.streams.unsubscribe(m.id, m.stream);
      case 'sendMessage':
        return void s.streams.send(m.id, m.text);
      case 'disconnect':
        return void s.streams.disconnect(m.id);
      case 'forget':
        return void s.streams.forget(m.id);
      case 'compare':
        return void s.answers.compare(m.left, m.right, m.mask);
      case 'why':
        // The command Explain a Rejected Request, given the entry: what a test runs too.
        return void vscode.commands.executeCommand('tradereq.explainRejected', m.id);
    }
  };
}

/** The measured clock offset of the environment's origin, for hover on 700003 (read from the shared state). */
function clockSample(environments: Environments, uri: vscode.Uri): ClockSample | undefined {
  const { ClockSync, FileStateStore } = lazy();
  try {
    return new ClockSync(new FileStateStore()).sample(new URL(environments.current(uri).baseUrl).origin);
  } catch {
    return undefined;
  }
}

export function deactivate(): void {
  // Every disposable is owned by context.subscriptions.
}
