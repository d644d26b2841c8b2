import * as vscode from 'vscode';
import { nodeCrypto } from '../core/node-lazy';
import { isWebSocket, type TradeReqDocument } from '../core/format/model';
import type { LiveFeed } from '../core/panel/live';
import type { Book, LiveConnection, LiveMessage, PushLine } from '../core/panel/protocol';
import type { AnswerStore } from '../core/request/answer-store';
import type { ListenKeyApi, MessageSent, ResolvedWsRequest, SubscriptionOutcome, WsSession } from '../core/ws';
import { offerBinding } from './dialogs';
import { toRange, type DocumentModels } from './documents';
import { editorKeySource } from './editor-keys';
import { environmentLabel } from '../core/env/demo';
import type { Environments } from './environments';
import type { KeyStore } from './keys';
import { lazy, ws } from './lazy';
import type { Network } from './network';
import { answersOf } from './sending';
import { requireTrust } from './trust';

/** Where the stream view's messages go: the response panel. */
interface LiveSink {
  post(m: LiveMessage | { type: 'forget'; id: string }): void;
}

export interface StreamsParts {
  readonly models: DocumentModels;
  readonly environments: Environments;
  readonly keys: KeyStore;
  readonly network: Network;
  readonly log: vscode.LogOutputChannel;
  readonly sink: LiveSink;
  /** The session's answers, for {{NAME.response.PATH}}: a request reads those of its own file and environment. */
  readonly answers: AnswerStore;
}

/** What tests read of the stream view (nothing secret: URLs and listen keys masked). */
export interface StreamsState {
  readonly connections: { connection: LiveConnection; pushes: PushLine[]; books: Book[] }[];
}

interface Live {
  readonly id: string;
  /** The request it was opened from: its document and position among the file's requests. */
  readonly uri: string;
  readonly index: number;
  readonly connection: WsSession;
  readonly feed: LiveFeed;
}

/** Closed connections whose view is kept until their tab is closed; older ones are forgotten. */
const KEPT_CLOSED = 20;

/**
 * The editor's live WebSocket connections (docs/format.md "WebSocket requests"): one WsConnection a
 * Connect, several at once, each shown in the panel's stream view through its LiveFeed. Keys come
 * from SecretStorage with their origin binding, as for REST sends; a listen key (`# @listenKey`)
 * is obtained through the send pipeline and lives only inside its connection (never logged,
 * stored or shown unmasked). Only in a trusted workspace.
 */
export class Streams implements vscode.Disposable {
  private readonly live = new Map<string, Live>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when a connection opens, closes or is forgotten (code lenses follow it). */
  readonly onDidChange = this.changed.event;

  constructor(private readonly parts: StreamsParts) {
    // The palette offers Disconnect, Unsubscribe and Send Message while a connection is live.
    this.changed.event(
      () => void vscode.commands.executeCommand('setContext', 'tradereq.live', this.active().length > 0),
    );
  }

  /** Connects the WebSocket request `index` of `document`; resolves to its id once it opened or failed. */
  async connect(document: vscode.TextDocument, index: number): Promise<string | undefined> {
    if (!requireTrust(this.parts.log)) return undefined;
    const doc = this.parts.models.get(document);
    const request = doc.requests[index];
    if (request === undefined || !isWebSocket(request)) {
      void vscode.window.showInformationMessage(vscode.l10n.t('TradeReq: Connect is for WebSocket requests (WS /ws).'));
      return undefined;
    }
    const running = this.activeFor(document.uri.toString(), index);
    if (running !== undefined) {
      running.feed.select();
      return running.id;
    }
    const resolved = await this.resolve(doc, index, document);
    return resolved === undefined ? undefined : this.open(resolved, document, index);
  }

  private async resolve(
    doc: TradeReqDocument,
    index: number,
    document: vscode.TextDocument,
  ): Promise<ResolvedWsRequest | undefined> {
    await this.parts.environments.ready(document.uri);
    const { resolveWsRequest, defaultContext } = lazy();
    const environment = this.parts.environments.current(document.uri);
    const answers = answersOf(this.parts, document.uri, environment);
    const context = defaultContext(environment, { response: (name) => answers.get(name) });
    const r = resolveWsRequest(doc, doc.requests[index]!, context);
    if (r.ok) return r.value;
    const d = r.error[0];
    if (d !== undefined) {
      const editor = await vscode.window.showTextDocument(document, { preserveFocus: false });
      editor.selection = new vscode.Selection(toRange(d.range).start, toRange(d.range).end);
      editor.revealRange(toRange(d.range));
    }
    void vscode.window.showErrorMessage(
      vscode.l10n.t('TradeReq: not connected: {0}', d?.message ?? vscode.l10n.t('the request cannot be resolved')),
    );
    return undefined;
  }

  private async open(r: ResolvedWsRequest, document: vscode.TextDocument, index: number): Promise<string> {
    const { log, network, sink } = this.parts;
    const { budget, route } = network.get();
    const { WsConnection, WsSession, LiveFeed, deploymentOf } = ws();
    const id = nodeCrypto().randomUUID();
    // Each connection of the session: the shared route of VS Code's http.* settings, closed with the shared sender.
    // The environment's deployment says how pushes come: JSON text, or Protocol Buffers to decode.
    const { restBaseUrl, streamEncoding } = r;
    const connection = new WsSession({
      connection: () => new WsConnection({ budget, restBaseUrl, network: route, streamEncoding }),
      reconnect: reconnectSetting(),
    });
    const feed = new LiveFeed({
      id,
      title: r.title,
      environment: environmentLabel(r.environment.name, new URL(r.url).origin),
      source: connection,
      post: (m) => sink.post(m),
    });
    feed.select();
    this.live.set(id, { id, uri: document.uri.toString(), index, connection, feed });
    this.forgetOldClosed();
    connection.on('state', (e) => {
      if (e.state.status === 'open') log.info(`WS ${r.title}: connected to ${e.state.url ?? ''}`);
      if (e.state.status === 'closed') log.info(`WS ${r.title}: ${e.state.message ?? 'closed'}`);
      // A reconnect's wait, and why (core/ws/reconnect.ts): the gap itself is in the stream view.
      if (e.state.status === 'connecting' && e.state.message !== undefined)
        log.info(`WS ${r.title}: ${e.state.message}`);
      this.changed.fire();
    });
    this.changed.fire();
    const listenKey = r.listenKey ? this.listenKeyApi(r, () => this.connect(document, index)) : undefined;
    // Renewed as often as the environment's deployment says.
    const keepAliveMs = deploymentOf(r.environment).listenKey.renewEveryMs;
    const opened = await connection.connect(r.url, listenKey && { listenKey, envWsUrl: r.envWsUrl, keepAliveMs });
    if (!opened.ok) {
      log.warn(`WS ${r.title}: not connected: ${opened.error.message}`);
      if (opened.error.kind !== 'aborted')
        void vscode.window.showErrorMessage(vscode.l10n.t('TradeReq: {0}', opened.error.message));
      return id;
    }
    await this.start(connection, r);
    return id;
  }

  /** `# @listenKey`: the signed userDataStream calls through the send pipeline (the connection masks the key it gets). */
  private listenKeyApi(r: ResolvedWsRequest, retry: () => unknown): ListenKeyApi {
    const { keys, log, network } = this.parts;
    const { sender, budget, clock } = network.get();
    return lazy().restListenKeyApi({
      environment: r.environment,
      keyProfile: r.keyProfile,
      key: editorKeySource(keys),
      sender,
      budget,
      clock,
      clockSync: true,
      onUnboundOrigin: offerBinding(keys, log, retry),
      // Already masked by restListenKeyApi.
      onFailure: (f) => log.warn(`WS ${r.title}: listen key: ${f.message}`),
    });
  }

  /** Subscribes the request's streams, then sends its messages, through the connection's pacer. */
  private async start(connection: WsSession, r: ResolvedWsRequest): Promise<void> {
    if (r.streams.length > 0) {
      const refused = (await connection.subscribe(r.streams)).filter((o) => !o.ok);
      for (const o of refused) this.parts.log.warn(`WS ${r.title}: not subscribed to ${o.stream}: ${o.msg ?? ''}`);
    }
    for (const text of r.messages) {
      const sent = await connection.send(text);
      if (!sent.ok) this.parts.log.warn(`WS ${r.title}: [message] not sent: ${sent.error}`);
    }
  }

  /** The open (or opening) connection of a request, if any. */
  private activeFor(uri: string, index: number): Live | undefined {
    for (const l of this.live.values()) if (l.uri === uri && l.index === index && isActive(l.connection)) return l;
    return undefined;
  }

  /** The id of the open or opening connection of a request (for its code lens). */
  connectionOf(uri: string, index: number): string | undefined {
    return this.activeFor(uri, index)?.id;
  }

  /** Open or opening connections, for pickers: id and title. */
  active(): { id: string; title: string }[] {
    return [...this.live.values()]
      .filter((l) => isActive(l.connection))
      .map((l) => ({ id: l.id, title: l.feed.view().title }));
  }

  async disconnect(id: string): Promise<void> {
    await this.live.get(id)?.connection.close();
  }

  unsubscribe(id: string, stream: string): Promise<SubscriptionOutcome> | undefined {
    return this.live.get(id)?.connection.unsubscribe(stream);
  }

  /** A message typed in the stream view (or given to the command), through the connection's pacer. */
  async send(id: string, text: string): Promise<MessageSent | undefined> {
    const l = this.live.get(id);
    if (l === undefined) return undefined;
    const sent = await l.connection.send(text);
    if (!sent.ok) void vscode.window.showWarningMessage(vscode.l10n.t('TradeReq: {0}', sent.error));
    return sent;
  }

  /** Closes a connection's tab: disconnects it first if it is still open. */
  async forget(id: string): Promise<void> {
    const l = this.live.get(id);
    if (l === undefined) return;
    await l.connection.close();
    l.feed.dispose();
    this.live.delete(id);
    this.parts.sink.post({ type: 'forget', id });
    this.changed.fire();
  }

  private forgetOldClosed(): void {
    const closed = [...this.live.values()].filter((l) => l.connection.state.status === 'closed');
    for (const l of closed.slice(0, Math.max(0, closed.length - KEPT_CLOSED))) void this.forget(l.id);
  }

  /** A panel that just loaded gets every connection again, with its newest pushes and books. */
  replay(): void {
    for (const l of this.live.values()) this.parts.sink.post(l.feed.replay());
  }

  state(): StreamsState {
    return {
      connections: [...this.live.values()].map((l) => {
        const m = l.feed.replay();
        return { connection: m.connection, pushes: m.pushes, books: m.books };
      }),
    };
  }

  dispose(): void {
    for (const l of this.live.values()) {
      void l.connection.close();
      l.feed.dispose();
    }
    this.live.clear();
    this.changed.dispose();
  }
}

/** tradereq.streams.reconnect: re-open a connection the server closed (default on). */
function reconnectSetting(): boolean {
  return vscode.workspace.getConfiguration('tradereq').get('streams.reconnect') !== false;
}

function isActive(c: WsSession): boolean {
  const s = c.state.status;
  return s === 'idle' || s === 'connecting' || s === 'open';
}
