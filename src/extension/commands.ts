import * as vscode from 'vscode';
import type { AnswerDocuments } from './answer-documents';
import { SANDBOX_PORT } from '../core/env/constants';
import { isWebSocket } from '../core/format/model';
import { copyAsCode } from './copy-as-code';
import type { Doctor } from './doctor';
import type { DocumentModels } from './documents';
import { storeDemoKey } from './editor-keys';
import type { Environments } from './environments';
import { importFromCurl, importHttpFile, importPostmanCollection } from './import-commands';
import { addApiKey, askBeforeTrades } from './key-wizard';
import { newRequestFile } from './new-file';
import { createStarterWorkspace } from './starter-workspace';
import type { KeyStore } from './keys';
import { lazy, tools } from './lazy';
import type { PanelPresenter } from './panel-presenter';
import type { Sending } from './sending';
import type { Streams } from './streams';
import type { SignedDocuments, SignedView } from './signed-view';
import type { Symbols } from './symbols';
import type { Testing } from './testing';

type SandboxHandle = Awaited<ReturnType<ReturnType<typeof tools>['startSandbox']>>;

/** The embedded sandbox exchange, started from the editor (a command or a test run): one at a time. */
export class SandboxHolder implements vscode.Disposable {
  handle: SandboxHandle | undefined;
  private starting: Promise<SandboxHandle> | undefined;

  /** The running sandbox, else one started on SANDBOX_PORT (or a free port when `anyPort` and it is taken). */
  start(anyPort: boolean): Promise<SandboxHandle> {
    if (this.handle) return Promise.resolve(this.handle);
    // Two callers at once share one start: a second server would be left running.
    return (this.starting ??= this.open(anyPort)
      .then((h) => (this.handle = h))
      .finally(() => (this.starting = undefined)));
  }

  private async open(anyPort: boolean): Promise<SandboxHandle> {
    try {
      return await tools().startSandbox({ port: SANDBOX_PORT });
    } catch (e) {
      if (!anyPort || (e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
      return tools().startSandbox({ port: 0 });
    }
  }

  dispose(): void {
    void this.handle?.close();
    void this.starting?.then((h) => h.close());
  }
}

/** What the commands work with. */
export interface Services {
  readonly models: DocumentModels;
  readonly environments: Environments;
  readonly symbols: Symbols;
  readonly keys: KeyStore;
  readonly sending: Sending;
  readonly signedView: SignedView;
  readonly signedDocs: SignedDocuments;
  readonly presenter: PanelPresenter;
  readonly streams: Streams;
  readonly answers: AnswerDocuments;
  readonly sandbox: SandboxHolder;
  readonly doctor: Doctor;
  readonly testing: Testing;
  readonly log: vscode.LogOutputChannel;
}

export type Handler = (...args: unknown[]) => unknown;

/**
 * Every command, by id: each a named factory (rust-analyzer's habit), made from this one table.
 * Activation registers the commands package.json contributes (extension.ts), each loading
 * dist/language.js, which holds this table, on its first run; test/unit/repo/commands.test.ts
 * keeps the two lists the same.
 */
const COMMANDS: Readonly<Record<string, (s: Services) => Handler>> = {
  'tradereq.sendRequest': sendRequest,
  'tradereq.sendAll': sendAll,
  'tradereq.signOnly': signOnly,
  'tradereq.copyAsCurl': copyAsCurl,
  'tradereq.copyAsCode': copyAsCodeCommand,
  'tradereq.importCurl': (s) => (input) => importFromCurl(s, input),
  'tradereq.importPostman': () => importPostmanCollection,
  'tradereq.importHttp': (s) => (source, out) => importHttpFile(s, source, out),
  'tradereq.showPanel': (s) => () => s.presenter.showLatest(),
  'tradereq.addApiKey': (s) => (profile, origin) => addApiKey(s.keys, s.environments, profile, origin),
  'tradereq.removeApiKey': removeApiKey,
  'tradereq.listApiKeys': listApiKeys,
  'tradereq.askBeforeTrades': (s) => (profile) => askBeforeTrades(s.keys, profile),
  'tradereq.startSandbox': startSandbox,
  'tradereq.stopSandbox': stopSandbox,
  'tradereq.resetState': () => resetState,
  'tradereq.selectEnvironment': selectEnvironment,
  'tradereq.refreshSymbols': refreshSymbols,
  'tradereq.connect': connect,
  'tradereq.disconnect': disconnect,
  'tradereq.unsubscribeStream': unsubscribeStream,
  'tradereq.sendWsMessage': sendWsMessage,
  'tradereq.newRequestFile': () => newRequestFile,
  'tradereq.createStarterWorkspace':
    (s) =>
    (...args) =>
      createStarterWorkspace(s.log, ...args),
  'tradereq.compareAnswers': compareAnswers,
  'tradereq.toggleAnswerMask': (s) => () => s.answers.toggleMask(),
  'tradereq.explainRejected': explainRejected,
  // Runs the Testing view's update profile (testing-files.ts says on what).
  'tradereq.updateSnapshots':
    (s) =>
    (...args) =>
      s.testing.updateSnapshots(args),
};

/** The handler of each command of the table, by id. */
export function commandHandlers(services: Services): ReadonlyMap<string, Handler> {
  return new Map(Object.entries(COMMANDS).map(([id, make]) => [id, make(services)]));
}

/** The document and request a command is about: its arguments (code lens) or the cursor. */
async function target(
  s: Services,
  uri?: unknown,
  index?: unknown,
): Promise<{ document: vscode.TextDocument; index: number } | undefined> {
  if (uri instanceof vscode.Uri && typeof index === 'number')
    return { document: await vscode.workspace.openTextDocument(uri), index };
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'tradereq') {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('TradeReq: open a .tradereq file and put the cursor in a request.'),
    );
    return undefined;
  }
  const request = s.sending.requestAt(editor.document, editor.selection.active.line);
  if (!request) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'TradeReq: the cursor is not in a request: put it under a request line such as POST /api/v3/order.',
      ),
    );
    return undefined;
  }
  return { document: editor.document, index: request.index };
}

function sendRequest(s: Services): Handler {
  return async (uri, index) => {
    const t = await target(s, uri, index);
    if (t === undefined) return undefined;
    // Send (its key binding, the editor title) on a WebSocket request connects it.
    const request = s.models.get(t.document).requests[t.index];
    if (request !== undefined && isWebSocket(request)) return s.streams.connect(t.document, t.index);
    return s.sending.send(t.document, t.index);
  };
}

/** Connect (code lens, or the WS request under the cursor): resolves to the connection's id. */
function connect(s: Services): Handler {
  return async (uri, index) => {
    const t = await target(s, uri, index);
    return t ? s.streams.connect(t.document, t.index) : undefined;
  };
}

/** The live connection a command is about: its id, the request of a code lens, or a pick among those open. */
async function liveConnection(s: Services, idOrUri?: unknown, index?: unknown): Promise<string | undefined> {
  if (typeof idOrUri === 'string') return idOrUri;
  if (idOrUri instanceof vscode.Uri && typeof index === 'number')
    return s.streams.connectionOf(idOrUri.toString(), index);
  const open = s.streams.active();
  if (open.length <= 1) return open[0]?.id;
  const picked = await vscode.window.showQuickPick(
    open.map((c) => ({ label: c.title, id: c.id })),
    { title: vscode.l10n.t('TradeReq: which connection?') },
  );
  return picked?.id;
}

function disconnect(s: Services): Handler {
  return async (idOrUri, index) => {
    const id = await liveConnection(s, idOrUri, index);
    if (id !== undefined) await s.streams.disconnect(id);
  };
}

function unsubscribeStream(s: Services): Handler {
  return async (idOrUri, stream) => {
    const id = await liveConnection(s, idOrUri);
    if (id === undefined) return undefined;
    const name =
      typeof stream === 'string'
        ? stream
        : await vscode.window.showInputBox({
            title: vscode.l10n.t('TradeReq: unsubscribe which stream?'),
            prompt: vscode.l10n.t('A stream name'),
          });
    return name ? s.streams.unsubscribe(id, name) : undefined;
  };
}

function sendWsMessage(s: Services): Handler {
  return async (idOrUri, message) => {
    const id = await liveConnection(s, idOrUri);
    if (id === undefined) return undefined;
    const text =
      typeof message === 'string'
        ? message
        : await vscode.window.showInputBox({
            title: vscode.l10n.t('TradeReq: send a message on the connection'),
            prompt: vscode.l10n.t(
              'One JSON object, sent through the connection’s pacer (§8: at most 100 messages a second)',
            ),
            value: '{"method": "PING"}', // l10n-ignore: a message in the service's own JSON
          });
    return text ? s.streams.send(id, text) : undefined;
  };
}

function sendAll(s: Services): Handler {
  return async (uri) => {
    const document =
      uri instanceof vscode.Uri
        ? await vscode.workspace.openTextDocument(uri)
        : vscode.window.activeTextEditor?.document;
    if (document?.languageId === 'tradereq') await s.sending.sendAll(document);
  };
}

function signOnly(s: Services): Handler {
  return async (uri, index) => {
    const t = await target(s, uri, index);
    const text = t ? await s.signedView.signOnly(t.document, t.index) : undefined;
    if (text !== undefined) await s.signedDocs.show(text);
    return text;
  };
}

function copyAsCurl(s: Services): Handler {
  return async (uri, index) => {
    const t = await target(s, uri, index);
    const text = t ? await s.signedView.curl(t.document, t.index) : undefined;
    if (text === undefined) return undefined;
    await vscode.env.clipboard.writeText(text);
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'TradeReq: copied as cURL. The API key is a shell variable; the signature is valid only within recvWindow of its timestamp.',
      ),
    );
    return text;
  };
}

function copyAsCodeCommand(s: Services): Handler {
  return async (uri, index, language) => {
    const t = await target(s, uri, index);
    return t ? copyAsCode(s, t.document, t.index, language) : undefined;
  };
}

function removeApiKey(s: Services): Handler {
  return async () => {
    const list = await s.keys.profiles();
    if (list.length === 0)
      return void vscode.window.showInformationMessage(vscode.l10n.t('TradeReq: no key profiles are stored.'));
    const items = list.map((k) => ({
      label: k.profile,
      description: vscode.l10n.t('{0} · API key {1}', k.origins.join(', '), k.maskedApiKey),
    }));
    const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('TradeReq: Remove API Key') });
    if (!picked) return;
    const remove = vscode.l10n.t('Remove');
    const question = vscode.l10n.t('Remove key profile "{0}" from SecretStorage?', picked.label);
    if ((await vscode.window.showWarningMessage(question, { modal: true }, remove)) === remove)
      await s.keys.remove(picked.label);
  };
}

function listApiKeys(s: Services): Handler {
  return async () => {
    const list = await s.keys.profiles();
    if (list.length === 0) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('TradeReq: no key profiles are stored. Run "TradeReq: Add API Key".'),
      );
      return list;
    }
    // Profiles, origins and the API key masked as everywhere: a key's value is never shown.
    const items = list.map((k) => ({
      label: k.profile,
      description: vscode.l10n.t(
        'bound to {0} · API key {1}',
        k.origins.join(', ') || vscode.l10n.t('no origin'),
        k.maskedApiKey,
      ),
      detail: k.asksBeforeTrades
        ? vscode.l10n.t('asks before each trade')
        : vscode.l10n.t('sends trades without asking'),
    }));
    await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('TradeReq: stored key profiles (API keys masked, secret keys never shown)'),
    });
    return list;
  };
}

function startSandbox(s: Services): Handler {
  return async () => {
    const running = s.sandbox.handle;
    if (running)
      return void vscode.window.showInformationMessage(
        vscode.l10n.t('TradeReq: the sandbox exchange is running at {0}.', running.baseUrl),
      );
    try {
      await s.sandbox.start(false);
    } catch (e) {
      const inUse = (e as NodeJS.ErrnoException).code === 'EADDRINUSE';
      void vscode.window.showErrorMessage(
        inUse
          ? vscode.l10n.t(
              'TradeReq: port {0} is in use: is a sandbox already running ("tradereq sandbox")? Requests to the sandbox environment go to it.',
              SANDBOX_PORT,
            )
          : vscode.l10n.t('TradeReq: the sandbox did not start: {0}', e instanceof Error ? e.message : String(e)),
      );
      return;
    }
    const baseUrl = (await s.sandbox.start(false)).baseUrl;
    const stored = await s.keys.get('sandbox');
    const store = vscode.l10n.t('Store Demo Key');
    const choice = await vscode.window.showInformationMessage(
      stored
        ? vscode.l10n.t(
            'TradeReq: sandbox exchange running at {0}. It follows the spec; nothing leaves this machine.',
            baseUrl,
          )
        : vscode.l10n.t(
            'TradeReq: sandbox exchange running at {0}. It follows the spec; nothing leaves this machine. Store its demo key as key profile "sandbox"?',
            baseUrl,
          ),
      ...(stored ? [] : [store]),
    );
    if (choice === store) await storeDemoKey(s.keys, new URL(baseUrl).origin);
    return baseUrl;
  };
}

function stopSandbox(s: Services): Handler {
  return async () => {
    await s.sandbox.handle?.close();
    s.sandbox.handle = undefined;
  };
}

/** The picker lists the environments of every tradereq.env.json, with the folder each comes from. */
function selectEnvironment(s: Services): Handler {
  return () => s.environments.pick();
}

function refreshSymbols(s: Services): Handler {
  return async () => {
    await s.environments.ready();
    s.symbols.refresh();
    const env = s.environments.current();
    const list = await s.symbols.exchangeInfo(env.baseUrl);
    void vscode.window.showInformationMessage(
      list.length > 0
        ? vscode.l10n.t('TradeReq: {0} symbols from the exchangeInfo of {1}.', list.length, env.name)
        : vscode.l10n.t(
            "TradeReq: no symbols from {0} (see the TradeReq output). Completion uses the tradereq.symbols setting and the workspace's files.",
            env.baseUrl,
          ),
    );
  };
}

/**
 * Forgets the rate-limit state of one origin or of all, after a modal confirmation: the way out
 * of a damaged state (which blocks sending), and of a ban the user knows is over.
 */
async function resetState(): Promise<void> {
  const { Budget, FileStateStore } = lazy();
  const store = new FileStateStore();
  const state = store.read();
  const all = vscode.l10n.t('All origins');
  const picks = [
    ...Object.entries(state.origins).map(([origin, o]) => ({
      label: origin,
      description: o.damaged ? vscode.l10n.t('damaged: sending is blocked') : undefined,
    })),
    {
      label: all,
      description: state.damaged
        ? vscode.l10n.t('the state file cannot be read ({0})', state.damaged.reason)
        : undefined,
    },
  ];
  const picked = await vscode.window.showQuickPick(picks, { title: vscode.l10n.t('TradeReq: Reset Rate-Limit State') });
  if (!picked) return;
  const which = picked.label === all ? vscode.l10n.t('every origin') : picked.label;
  const reset = vscode.l10n.t('Reset');
  const detail = vscode.l10n.t(
    'Reset only once you know no ban is in force: sending during a ban extends it (§8 rules 2–3).',
  );
  const question = vscode.l10n.t('Forget the rate-limit budget, Retry-After wait and ban of {0}?', which);
  if ((await vscode.window.showWarningMessage(question, { modal: true, detail }, reset)) !== reset) return;
  const done = await new Budget(store).reset(picked.label === all ? undefined : picked.label);
  if (done.ok)
    void vscode.window.showInformationMessage(vscode.l10n.t('TradeReq: the rate-limit state of {0} was reset.', which));
  else void vscode.window.showErrorMessage(vscode.l10n.t('TradeReq: {0}; nothing was reset.', done.error));
}

/** Compare Two Answers: two entry ids (the panel, a test), else picked from the history. */
function compareAnswers(s: Services): Handler {
  return (left, right, mask) =>
    typeof left === 'string' && typeof right === 'string'
      ? s.answers.compare(left, right, mask === true)
      : s.answers.pickAndCompare();
}

/** Explain a Rejected Request: a send of the history by its id (the panel's Why?), else the selection or a pasted line. */
function explainRejected(s: Services): Handler {
  return (entryId) => (typeof entryId === 'string' ? s.doctor.explainEntry(entryId) : s.doctor.explainInput());
}
