/**
 * The request files' language and the services behind the commands, in a bundle of their own
 * (dist/language.js) that extension.ts loads once, on first use: the first request file open, the
 * first call of a provider or the first command. The parser, the check step, completion, hover,
 * the catalogs and every command's code are here, so activation compiles none of them.
 */
import * as vscode from 'vscode';
import { AnswerDocuments } from './answer-documents';
import { setL10nBundle } from '../core/l10n';
import type { ClockSample } from '../core/clock/clock';
import type { FromPanel, PanelState } from '../core/panel/protocol';
import { AnswerStore } from '../core/request/answer-store';
import { codeLensProvider } from './codelens';
import { commandHandlers, SandboxHolder, type Handler, type Services } from './commands';
import { completionProvider } from './completion';
import { DiagnosticsManager } from './diagnostics';
import { QuickFixes, quickFixProvider } from './quick-fixes';
import { Doctor } from './doctor';
import { DocumentModels } from './documents';
import { Environments } from './environments';
import { lazy } from './lazy';
import { History } from './history';
import { CurlPaste } from './import-commands';
import { hoverProvider } from './hover';
import { KeyStore, warmKeysOfRequestFiles } from './keys';
import { Network } from './network';
import { affectsNetwork } from './proxy-settings';
import { ResponsePanel } from './panel';
import { PanelPresenter } from './panel-presenter';
import { reach } from './milestones';
import type { Providers } from './providers';
import { Sending } from './sending';
import { Streams, type StreamsState } from './streams';
import { SignedDocuments, SignedView } from './signed-view';
import { StatusBar } from './statusbar';
import { SettingsCache } from './settings';
import { Symbols } from './symbols';
import type { Testing } from './testing';
import { TestItems } from './testing-files';

/** What activation made that the services here use. */
export interface Shell {
  /** The Testing view's controller and run profiles, whose items and runs are made here. */
  readonly testing: Testing;
  /** Fired when a connection opens or closes: the lenses of WebSocket requests change. */
  readonly lensesChanged: vscode.EventEmitter<void>;
}

/** The services, providers and commands, made once, as this bundle loads. */
export interface Language extends vscode.Disposable {
  readonly providers: Providers;
  readonly testFiles: TestItems;
  /** The handler of a command of commands.ts's table. */
  command(id: string): Handler | undefined;
  panelState(): PanelState | undefined;
  panelMessage(message: unknown): void;
  streamsState(): StreamsState;
  diagnosticsRunner(uri: string): 'worker' | 'main' | undefined;
  environmentChoices(): Promise<readonly { label: string; description?: string; detail?: string }[]>;
  statePath(): string;
}

/** Wires the services, each made after what it needs (no service is filled in later). */
export function open(context: vscode.ExtensionContext, shell: Shell): Language {
  // This bundle's copy of the core's messages, in the display language: VS Code's bundle of it (undefined in English).
  setL10nBundle(vscode.l10n.bundle);
  const s = createServices(context, shell.testing);
  const fixes = new QuickFixes();
  const diagnostics = new DiagnosticsManager(s.models, s.environments, fixes, s.settings, context.extensionUri);
  const statusBar = new StatusBar(s.environments, (origin) => s.network.budgetViewIfLoaded(origin));
  const { environments, keys, network, sandbox, log } = s;
  const testFiles = new TestItems(shell.testing, s.models, { environments, keys, network, sandbox, log });
  const handlers = commandHandlers(s);
  const disposables = [
    testFiles,
    ...s.disposables,
    diagnostics,
    statusBar,
    s.sending.onDidSend(() => statusBar.refresh()),
    s.sending.onDidSend(() => reach('requestSent')),
    s.environments.onDidChange(() => statusBar.refresh()),
    vscode.window.onDidChangeActiveTextEditor(() => statusBar.refresh()),
    vscode.workspace.onDidChangeConfiguration((e) => affectsNetwork(e) && s.network.settingsChanged()),
    s.streams.onDidChange(() => shell.lensesChanged.fire()),
    warmKeysOfRequestFiles(s.keys, s.environments),
  ];
  void s.environments.ready().then(() => statusBar.refresh());
  return {
    providers: providers(s, fixes),
    testFiles,
    command: (id) => handlers.get(id),
    panelState: () => s.panel.current(),
    panelMessage: (message) => s.panel.receive(message),
    streamsState: () => s.streams.state(),
    diagnosticsRunner: (uri) => diagnostics.runner(uri),
    environmentChoices: () => s.environments.choices(),
    statePath: () => s.network.statePath(),
    dispose: () => {
      for (const d of disposables) d.dispose();
    },
  };
}

function providers(s: Services, fixes: QuickFixes): Providers {
  return {
    codeLenses: codeLensProvider(s.models, s.streams),
    completion: completionProvider(s.models, s.environments, s.symbols, (uri, r) => s.sending.answerPaths(uri, r)),
    hover: hoverProvider(s.models, s.environments, (uri) => clockSample(s.environments, uri)),
    quickFixes: quickFixProvider(fixes),
    curlPaste: new CurlPaste(s.environments),
  };
}

/** The services the providers and commands share, with everything to dispose of. */
interface World extends Services {
  readonly panel: ResponsePanel;
  readonly network: Network;
  readonly settings: SettingsCache;
  readonly disposables: vscode.Disposable[];
}

function createServices(context: vscode.ExtensionContext, testing: Testing): World {
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
    testing,
    log,
    panel,
    network,
    settings,
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
