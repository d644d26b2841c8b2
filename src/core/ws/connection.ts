/**
 * One WebSocket connection to the service (spec §6, §8; docs/websocket.md), over the `ws`
 * package's client and the connection net/network.ts chooses (direct, or a CONNECT tunnel through a
 * proxy, the same rule as REST): the upgrade gated by the rate-limit state, an optional listen key
 * held for the connection, subscriptions grouped into SUBSCRIPTION messages, messages typed by the
 * user, replies matched by id, pushes validated by the catalog, per-stream figures, and keep-alive
 * PINGs, every client message paced under §8's rate. Used alike by `tradereq listen` and the
 * editor's stream view, through a WsSession (reconnect.ts); it never reconnects by itself: a
 * reconnect is a new WsConnection, through the same gate.
 */
import { inspect } from 'node:util';
import type { ClientRequest } from 'node:http';
import { WebSocket } from 'ws';
import { BOUNDS, clip } from '../bounds';
import { t } from '../l10n';
import type { Budget } from '../budget/budget';
import { Network, type Connection } from '../net/network';
import { FAILURE_CODES } from '../net/send';
import { normaliseOrigin } from '../request/origin-binding';
import { err, ok, type Result } from '../result';
import {
  ClientMessageSchema,
  PING_MESSAGE,
  PONG,
  parseStreamName,
  subscriptionMessage,
  type Reply,
} from '../catalog/streams';
import type { StreamEncoding } from '../catalog/deployment';
import { WS_RULES } from '../catalog/ws-limits';
import { closeMessage } from './close-codes';
import { WsEmitter } from './emitter';
import { MAX_FRAME_BYTES, bytesText, readFrame, serverText, type Frame } from './frames';
import { ListenKeyLease, type ListenKeyApi } from './listen-key';
import { MessagePacer, PACING, PacerError } from './pacer';
import { PendingReplies, pending, sentMessage, type Pending } from './pending-replies';
import { StreamTable } from './stream-table';
import {
  noCounts,
  type ConnectionSnapshot,
  type Counts,
  type ConnectionState,
  type MutableCounts,
  type FrameProblem,
  type MessageOrigin,
  type MessageSent,
  type SubscriptionOutcome,
  type WsFailure,
} from './types';
import {
  describeBadHandshake,
  describeNetworkFailure,
  describeRefusedUpgrade,
  describeTimeout,
  gateUpgrade,
  noteUpgrade,
  recordRefusedUpgrade,
  type UpgradeAnswer,
} from './upgrade';
import { checkListenKeyDestination, maskListenKey, parseWsUrl, upgradeOrigin } from './url';

export const WS_DEFAULTS = {
  connectTimeoutMs: 10_000,
  /** A SUBSCRIPTION or UNSUBSCRIPTION with no reply this long is reported and given up. */
  replyTimeoutMs: 10_000,
  /** A PING goes when nothing else was sent this long (assumed: the family closes quiet connections). */
  pingAfterMs: 20_000,
  /** A message typed by the user is at most this long (the service's own bound is not shown). */
  maxMessageBytes: 16 * 1024,
  /** After close(), the server's close frame is waited for this long. */
  closeGraceMs: 3_000,
  /** At the end, the listen key's DELETE is waited for this long; past it the key is left to lapse (60 minutes). */
  releaseTimeoutMs: 10_000,
  /** Streams one connection holds or asks for; §8 allows 30, the server refuses the rest, the client refuses past this. */
  maxHeldStreams: WS_RULES.maxParamsPerMessage,
} as const;

/** Streams in one SUBSCRIPTION: at most the catalog's per-message cap, and no more than a connection may hold. */
const GROUP = Math.min(WS_RULES.maxParamsPerMessage, WS_RULES.streamsPerConnection);
/** ws stops reading a frame past this many times the drop cap (its maxPayload): 1009 sent, the connection let go (1006). */
const HARD_FRAME_FACTOR = 4;

export interface WsConnectionOptions {
  /** The rate-limit state shared with REST: its bans and Retry-After waits hold the upgrade back. */
  readonly budget: Budget;
  /** The environment's REST base URL: a ban of its origin holds the upgrade back too (§8 bans an IP). */
  readonly restBaseUrl?: string;
  /**
   * How the upgrade reaches its origin (net/network.ts: direct, or a CONNECT tunnel through a proxy);
   * the same one the listen key's calls are sent over (their Sender's). Default: direct, closed with
   * the connection; one passed in is its owner's to close.
   */
  readonly network?: Network;
  readonly connectTimeoutMs?: number;
  readonly replyTimeoutMs?: number;
  /** 0: no keep-alive PINGs. */
  readonly pingAfterMs?: number;
  /** Frames above this are dropped with a count. */
  readonly maxFrameBytes?: number;
  /**
   * How the server sends its pushes: the environment's deployment's `streamEncoding`
   * (catalog/deployment.ts). Default JSON text; under Protocol Buffers, binary frames are decoded
   * (pb.ts) and a push in JSON text is dropped with a count.
   */
  readonly streamEncoding?: StreamEncoding;
  readonly maxMessageBytes?: number;
  readonly closeGraceMs?: number;
  readonly releaseTimeoutMs?: number;
  readonly pacing?: { readonly messages?: number; readonly windowMs?: number; readonly maxQueued?: number };
  /** Unix ms for event times and ages. Default Date.now. */
  readonly now?: () => number;
}

export interface ConnectOptions {
  /** `# @listenKey`: obtain a listen key with these signed calls, connect with it, keep it alive, close it at the end. */
  readonly listenKey?: ListenKeyApi;
  /** The environment's wsUrl: the only origin the listen key goes to (required with listenKey). */
  readonly envWsUrl?: string;
  /** Keep-alive interval of the listen key; default 30 minutes. */
  readonly keepAliveMs?: number;
  /**
   * A listen key its caller holds across connections (a WsSession, reconnect.ts), asked for where
   * `listenKey` would be obtained: used and masked here, never closed here.
   */
  readonly heldLease?: () => Promise<Result<ListenKeyLease, WsFailure>>;
}

/** The connection opened, or the failure that kept it from opening. */
export type ConnectResult = Result<void, WsFailure>;

/** The count each dropped frame adds to. */
const PROBLEM_COUNT = {
  'not-json': 'notJson',
  binary: 'binary',
  unknown: 'unknown',
  'too-large': 'tooLarge',
  undecodable: 'undecodable',
  'text-push': 'textPush',
} as const satisfies Record<FrameProblem, keyof Counts>;

function reasonOf(e: unknown): string {
  return e instanceof PacerError ? e.message : t('Not sent: {0}.', e instanceof Error ? e.message : String(e));
}

export class WsConnection extends WsEmitter {
  readonly #budget: Budget;
  readonly #restBaseUrl: string | undefined;
  readonly #network: Network;
  readonly #ownNetwork: boolean;
  readonly #o: {
    connectTimeoutMs: number;
    replyTimeoutMs: number;
    pingAfterMs: number;
    maxFrameBytes: number;
    maxMessageBytes: number;
    closeGraceMs: number;
    releaseTimeoutMs: number;
  };
  readonly #now: () => number;
  readonly #encoding: StreamEncoding;
  readonly #pacer: MessagePacer;
  readonly #pace: string;
  readonly #streams = new StreamTable();
  readonly #pending = new PendingReplies();
  readonly #counts: MutableCounts = noCounts();
  #state: ConnectionState = { status: 'idle' };
  #ws: WebSocket | undefined;
  #lease: ListenKeyLease | undefined;
  /** The lease is its caller's (ConnectOptions.heldLease): not closed with the connection. */
  #leaseHeld = false;
  #pingTimer: NodeJS.Timeout | undefined;
  #sweepTimer: NodeJS.Timeout | undefined;
  #graceTimer: NodeJS.Timeout | undefined;
  #closeRequested = false;
  #finalised = false;
  /** Unix ms of the last reply or push: a server that answers nothing at all is given up. */
  #heardAt = -Infinity;
  readonly #finished: Promise<void>;
  #resolveFinished: () => void = () => undefined;

  constructor(options: WsConnectionOptions) {
    super();
    this.#budget = options.budget;
    this.#restBaseUrl = options.restBaseUrl;
    this.#ownNetwork = options.network === undefined;
    this.#network = options.network ?? new Network();
    this.#o = {
      connectTimeoutMs: options.connectTimeoutMs ?? WS_DEFAULTS.connectTimeoutMs,
      replyTimeoutMs: options.replyTimeoutMs ?? WS_DEFAULTS.replyTimeoutMs,
      pingAfterMs: options.pingAfterMs ?? WS_DEFAULTS.pingAfterMs,
      maxFrameBytes: options.maxFrameBytes ?? MAX_FRAME_BYTES,
      maxMessageBytes: options.maxMessageBytes ?? WS_DEFAULTS.maxMessageBytes,
      closeGraceMs: options.closeGraceMs ?? WS_DEFAULTS.closeGraceMs,
      releaseTimeoutMs: options.releaseTimeoutMs ?? WS_DEFAULTS.releaseTimeoutMs,
    };
    this.#now = options.now ?? Date.now;
    this.#encoding = options.streamEncoding ?? 'json';
    this.#pacer = new MessagePacer(options.pacing);
    const p = options.pacing;
    this.#pace = t('at most {0} in {1} ms', p?.messages ?? PACING.messages, p?.windowMs ?? PACING.windowMs);
    this.#finished = new Promise((resolve) => (this.#resolveFinished = resolve));
  }

  get state(): ConnectionState {
    return this.#state;
  }

  /** Resolves once the connection is closed and its listen key (if any) closed too. */
  get finished(): Promise<void> {
    return this.#finished;
  }

  // ------------------------------------------------------------------------------------------
  // Opening

  /**
   * Opens the connection: the gate first (a ban or Retry-After wait in force: nothing goes out),
   * then the listen key (with `options.listenKey`), then the upgrade. Called once per connection.
   */
  async connect(url: string, options: ConnectOptions = {}): Promise<ConnectResult> {
    if (this.#state.status !== 'idle')
      return err({
        kind: 'usage',
        message: 'A WsConnection connects once: make a new one to connect again (it goes through the same gate).',
      });
    const u = parseWsUrl(url);
    if (u === undefined)
      return this.#fail({
        kind: 'usage',
        message: t('The WebSocket URL is not a ws:// or wss:// URL (user:password in it is not allowed).'),
      });
    const origin = upgradeOrigin(u.href)!;
    const rest = this.#restBaseUrl === undefined ? undefined : normaliseOrigin(this.#restBaseUrl);
    const refused = gateUpgrade(this.#budget, rest === undefined || rest === origin ? [origin] : [origin, rest]);
    if (refused !== undefined) return this.#fail(refused);
    this.#setState({ status: 'connecting', url: displayUrl(u) });
    // Before the listen key is asked for: a route refused for it sends nothing at all.
    const withKey = options.listenKey !== undefined || options.heldLease !== undefined;
    const route = await this.#network.connection(u, withKey || u.searchParams.has('listenKey'), false);
    if (!route.ok) return this.#fail({ kind: 'network', code: FAILURE_CODES.routeRefused, message: route.error });
    if (withKey) {
      const failure = await this.#obtainLease(u, options);
      if (failure !== undefined) return this.#fail(failure);
    }
    if (this.#closeRequested)
      return this.#fail({ kind: 'aborted', message: t('Closed before the connection opened.') });
    return this.#open(u, origin, route.value);
  }

  async #obtainLease(u: URL, options: ConnectOptions): Promise<WsFailure | undefined> {
    if (options.envWsUrl === undefined)
      return {
        kind: 'listen-key',
        message: t("A listen key needs the environment's wsUrl, the only origin it may go to."),
      };
    const destination = checkListenKeyDestination(u.href, options.envWsUrl);
    if (!destination.ok) return { kind: 'listen-key', message: destination.error };
    if (options.heldLease !== undefined) {
      const held = await options.heldLease();
      if (!held.ok) return held.error;
      this.#lease = held.value;
      this.#leaseHeld = true;
      return undefined;
    }
    const lease = await ListenKeyLease.open(options.listenKey!, {
      keepAliveMs: options.keepAliveMs,
      onError: (failure) => this.emit({ type: 'error', failure }),
    });
    if (!lease.ok) return lease.error;
    this.#lease = lease.value;
    return undefined;
  }

  /** The `ws` client for `u` over `connection`; what comes back for its upgrade is noted in `answer`. */
  #webSocket(u: URL, connection: Connection, answer: UpgradeAnswer): WebSocket {
    return new WebSocket(this.#lease?.urlFor(u) ?? u.href, {
      agent: connection.agent,
      maxPayload: this.#o.maxFrameBytes * HARD_FRAME_FACTOR,
      // One message a task, as WHATWG's WebSocket: frames that came with the 101 wait until the
      // caller of connect() has its listeners on, and a flood never holds the editor's thread.
      allowSynchronousEvents: false,
      // Called within the constructor, with the upgrade request before it is sent.
      finishRequest: (req: ClientRequest, socket: WebSocket) => {
        noteUpgrade(socket, req, answer);
        req.end();
      },
    });
  }

  #open(u: URL, origin: string, connection: Connection): Promise<ConnectResult> {
    const answer: UpgradeAnswer = { body: '', via: connection.proxy?.shown };
    let ws: WebSocket;
    try {
      ws = this.#webSocket(u, connection, answer);
    } catch (e) {
      // Node checks the request before it connects: nothing was sent, and connect() never throws.
      const code = (e as { code?: unknown }).code;
      const refused: UpgradeAnswer = { body: '', errorCode: typeof code === 'string' ? code : undefined };
      return Promise.resolve(this.#fail(describeNetworkFailure(refused, origin)));
    }
    this.#ws = ws;
    return new Promise((resolve) => {
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        ws.terminate();
      }, this.#o.connectTimeoutMs);
      ws.on('open', () => {
        clearTimeout(timer);
        this.#opened();
        resolve(ok(undefined));
      });
      ws.on('close', (code: number, reason: Buffer) => {
        clearTimeout(timer);
        if (this.#state.status === 'connecting') resolve(this.#notOpened(answer, origin, timedOut));
        else this.#closed(code, reason.toString('utf8'));
      });
      ws.on('message', (data: WebSocket.RawData, binary: boolean) => this.#onFrame(frameData(data, binary)));
      // Every error is followed by a close event, which says what happened; once open, a frame ws
      // refuses (too large, not a frame) has it send its close code: the socket is let go at once.
      ws.on('error', () => {
        if (this.#state.status !== 'connecting') ws.terminate();
      });
    });
  }

  async #notOpened(answer: UpgradeAnswer, origin: string, timedOut: boolean): Promise<ConnectResult> {
    if (this.#closeRequested)
      return this.#fail({ kind: 'aborted', message: t('Closed before the connection opened.') });
    if (answer.status === 101) return this.#fail(this.#redactFailure(describeBadHandshake(answer, origin)));
    if (answer.status !== undefined) {
      const f = this.#redactFailure(describeRefusedUpgrade(answer, origin, this.#lease !== undefined));
      if (f.kind === 'upgrade' && (f.status === 418 || f.status === 429)) {
        const recorded = await recordRefusedUpgrade(this.#budget, origin, f);
        return this.#fail(recorded.failure ?? f);
      }
      return this.#fail(f);
    }
    if (timedOut) return this.#fail(describeTimeout(answer, origin, this.#o.connectTimeoutMs));
    return this.#fail(describeNetworkFailure(answer, origin));
  }

  #opened(): void {
    this.#setState({ ...this.#state, status: 'open', openedAt: this.#now() });
    if (this.#o.pingAfterMs > 0) {
      this.#pingTimer = setTimeout(() => this.#ping(), this.#o.pingAfterMs);
      this.#pingTimer.unref();
    }
  }

  // ------------------------------------------------------------------------------------------
  // Closing

  /** Closes the connection (idempotent) and resolves once it is closed and its listen key closed. */
  close(code = 1000, reason = 'closed by the client'): Promise<void> {
    if (this.#closeRequested || this.#finalised) return this.#finished;
    this.#closeRequested = true;
    const status = this.#state.status;
    if (status === 'idle') {
      this.#finalise({ status: 'closed', closedAt: this.#now(), message: t('Closed before connecting.') });
    } else if (status === 'connecting') {
      // The handshake fails and connect() resolves with "closed before the connection opened".
      this.#ws?.close();
    } else if (status === 'open') {
      this.#setState({ ...this.#state, status: 'closing' });
      this.#pacer.close(t('the connection is closing'));
      const valid = code === 1000 || (code >= 3000 && code <= 4999);
      this.#ws?.close(valid ? code : 1000, Buffer.byteLength(reason) <= 123 ? reason : undefined);
      this.#graceTimer = setTimeout(() => {
        this.#closed(1006, t('no close frame from the server within {0} s', this.#o.closeGraceMs / 1000));
        this.#ws?.terminate();
      }, this.#o.closeGraceMs);
    }
    return this.#finished;
  }

  #closed(code: number, reason: string): void {
    const shown = this.redact(serverText(reason));
    this.#finalise({
      ...this.#state,
      status: 'closed',
      closedAt: this.#now(),
      code,
      reason: shown,
      message: closeMessage(code, shown, this.#closeRequested, this.#o.maxFrameBytes * HARD_FRAME_FACTOR),
    });
  }

  /** A connect that never opened: the failure reported, the connection closed. */
  #fail(failure: WsFailure): ConnectResult {
    if (failure.kind !== 'aborted') this.emit({ type: 'error', failure });
    this.#finalise({ ...this.#state, status: 'closed', closedAt: this.#now(), message: failure.message, failure });
    return err(failure);
  }

  #finalise(state: ConnectionState): void {
    if (this.#finalised) return;
    this.#finalised = true;
    clearTimeout(this.#pingTimer);
    clearTimeout(this.#sweepTimer);
    clearTimeout(this.#graceTimer);
    this.#pacer.close(t('the connection is closed'));
    for (const p of this.#pending.clear()) this.#giveUp(p, t('the connection closed before the reply came'));
    this.#setState(state);
    void this.#release().then(this.#resolveFinished);
  }

  async #release(): Promise<void> {
    const failure = await this.#closeLease();
    if (failure !== undefined) this.emit({ type: 'error', failure });
    // The connection is over: the agents of a network of its own go with it.
    if (this.#ownNetwork) this.#network.close();
  }

  /** Closes the listen key, waiting at most releaseTimeoutMs: a DELETE with no answer cannot hold the end. */
  async #closeLease(): Promise<WsFailure | undefined> {
    const lease = this.#lease;
    if (lease === undefined || this.#leaseHeld) return undefined;
    let timer: NodeJS.Timeout | undefined;
    const s = this.#o.releaseTimeoutMs / 1000;
    const late = new Promise<WsFailure>((resolve) => {
      timer = setTimeout(
        () =>
          resolve({
            kind: 'listen-key',
            message: t(
              'The listen key {0} could not be closed within {1} s (DELETE /api/v3/userDataStream had no answer). It lapses by itself 60 minutes after its last keep-alive.',
              lease.masked,
              s,
            ),
          }),
        this.#o.releaseTimeoutMs,
      );
    });
    try {
      return await Promise.race([lease.close(), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  // ------------------------------------------------------------------------------------------
  // Client messages

  /**
   * Subscribes `streams` (§8: at most 30 a connection; the server refuses the rest), grouped into
   * SUBSCRIPTION messages through the pacer. Resolves with what became of each stream; never rejects.
   */
  subscribe(streams: readonly string[]): Promise<SubscriptionOutcome[]> {
    const names = [...new Set(streams)];
    const local = new Map<string, SubscriptionOutcome>();
    const fresh: string[] = [];
    for (const name of names) {
      const check = this.#check(name, fresh.length);
      if (check === 'held') local.set(name, { stream: name, ok: true, msg: t('already subscribed or on its way') });
      else if (check !== 'send') local.set(name, this.#refuseLocally(name, check.refused));
      else fresh.push(name);
    }
    const groups = groupStreams(fresh, WS_RULES.streamsPerConnection - this.#streams.used());
    for (const name of fresh) this.#streams.pending(name);
    const sent = groups.map((group) => {
      const id = this.#pending.allocate();
      return this.#request(subscriptionMessage('SUBSCRIPTION', group, id), 'SUBSCRIPTION', id, group);
    });
    return Promise.all(sent).then((outcomes) => {
      const byName = new Map(outcomes.flat().map((o) => [o.stream, o]));
      return names.map((n) => local.get(n) ?? byName.get(n)!);
    });
  }

  /** Whether `name` goes in a SUBSCRIPTION, is already held, or is refused here (and why). */
  #check(name: string, adding: number): 'send' | 'held' | { readonly refused: string } {
    if (this.#state.status !== 'open') return { refused: t('Not sent: the connection is not open.') };
    const named = this.#readName(name);
    if (named !== undefined) return { refused: named };
    if (this.#streams.holds(name)) return 'held';
    if (this.#streams.used() + adding >= WS_DEFAULTS.maxHeldStreams)
      return {
        refused: t(
          'Not sent: this connection already holds or asks for {0} streams (§8 allows {1}).',
          WS_DEFAULTS.maxHeldStreams,
          WS_RULES.streamsPerConnection,
        ),
      };
    return 'send';
  }

  /**
   * Why `name` is not asked for, or undefined. JSON streams are read by the catalog; the channels of a
   * deployment that sends Protocol Buffers are not in it, so only their shape is held here (bounded,
   * printable, no spaces) and the server judges the rest.
   */
  #readName(name: string): string | undefined {
    if (this.#encoding === 'json') {
      const parsed = parseStreamName(name);
      return parsed.ok ? undefined : parsed.error.message;
    }
    if (name.length > 0 && name.length <= WS_RULES.maxStreamNameLength && /^[\x21-\x7e]+$/.test(name)) return undefined;
    return t('Not sent: a stream name is 1 to {0} printable characters without spaces.', WS_RULES.maxStreamNameLength);
  }

  #refuseLocally(stream: string, msg: string): SubscriptionOutcome {
    if (this.#state.status === 'open' || this.#state.status === 'closing') this.#streams.refuse(stream, undefined, msg);
    const outcome = { stream, ok: false, msg };
    this.emit({ type: 'subscription', outcome, change: 'subscribe' });
    return outcome;
  }

  /** Unsubscribes one stream (UNSUBSCRIPTION through the pacer); resolves with the outcome. */
  async unsubscribe(stream: string): Promise<SubscriptionOutcome> {
    if (this.#state.status !== 'open') return { stream, ok: false, msg: t('Not sent: the connection is not open.') };
    if (this.#streams.status(stream) !== 'subscribed')
      return { stream, ok: false, msg: t('Not sent: this connection is not subscribed to it.') };
    this.#streams.set(stream, 'unsubscribing');
    const id = this.#pending.allocate();
    const [outcome] = await this.#request(subscriptionMessage('UNSUBSCRIPTION', [stream], id), 'UNSUBSCRIPTION', id, [
      stream,
    ]);
    return outcome!;
  }

  #request(
    text: string,
    method: string,
    id: number,
    streams: readonly string[],
  ): Promise<readonly SubscriptionOutcome[]> {
    return new Promise((resolve) => {
      this.#pacer
        .submit(() => this.#transmit(text, 'client', pending(method, id, 'client', this.#now(), streams, resolve)))
        .catch((e: unknown) => resolve(this.#settleWithout(method, streams, reasonOf(e))));
    });
  }

  /**
   * Sends one JSON message as written (`[message]`, or typed in the stream view), through the same
   * pacer. A SUBSCRIPTION or UNSUBSCRIPTION in it is tracked like the client's own.
   */
  async send(text: string): Promise<MessageSent> {
    if (this.#state.status !== 'open') return err(t('Not sent: the connection is not open.'));
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > this.#o.maxMessageBytes)
      return err(
        t(
          "Not sent: the message has {0} bytes, over the client's cap of {1}.",
          bytes,
          bytesText(this.#o.maxMessageBytes),
        ),
      );
    let json: unknown;
    try {
      json = JSON.parse(text) as unknown;
    } catch (e) {
      return err(t('Not sent: the message is not valid JSON ({0}).', clip(String(e), 200)));
    }
    if (json === null || typeof json !== 'object' || Array.isArray(json))
      return err(t('Not sent: a message is a JSON object, such as {"method": "PING"}.'));
    const p = this.#trackUserMessage(json as Record<string, unknown>);
    try {
      await this.#pacer.submit(() => this.#transmit(text, 'user', p));
      return ok({ id: p.id });
    } catch (e) {
      if (p.streams !== undefined) this.#settleWithout(p.method, p.streams, reasonOf(e));
      return err(reasonOf(e));
    }
  }

  /** The table entry of a user's message; its streams marked as on their way. */
  #trackUserMessage(json: Record<string, unknown>): Pending {
    const rawId = json['id'];
    const id = typeof rawId === 'number' && Number.isSafeInteger(rawId) && rawId >= 0 ? rawId : 0;
    const parsed = ClientMessageSchema.safeParse(json);
    const method = typeof json['method'] === 'string' ? clip(json['method'], 40) : t('(no method)');
    if (!parsed.success || parsed.data.method === 'PING') return pending(method, id, 'user', this.#now());
    const m = parsed.data;
    const streams = [...new Set(m.params)];
    for (const s of streams) {
      if (m.method === 'SUBSCRIPTION' && !this.#streams.holds(s)) this.#streams.pending(s);
      if (m.method === 'UNSUBSCRIPTION' && this.#streams.status(s) === 'subscribed')
        this.#streams.set(s, 'unsubscribing');
    }
    return pending(m.method, id, 'user', this.#now(), streams);
  }

  #ping(): void {
    if (this.#state.status !== 'open') return;
    this.#pacer
      .submit(() => this.#transmit(PING_MESSAGE, 'ping', pending('PING', 0, 'ping', this.#now())))
      .catch(() => this.#pingTimer?.refresh());
  }

  /** Puts one message on the wire; the pacer calls it when the pace allows. */
  #transmit(text: string, origin: MessageOrigin, p: Pending): void {
    const ws = this.#ws;
    if (ws === undefined || this.#state.status !== 'open' || ws.readyState !== WebSocket.OPEN)
      throw new Error(t('the connection is not open'));
    this.#pending.add({ ...p, sentAt: this.#now() });
    this.#armSweep();
    ws.send(text);
    this.#counts.sent++;
    this.#pingTimer?.refresh();
    this.emit({ type: 'sent', text: this.redact(text), origin, at: this.#now() });
  }

  // ------------------------------------------------------------------------------------------
  // Server messages

  #onFrame(data: unknown): void {
    if (this.#finalised) return;
    const f = readFrame(data, this.#o.maxFrameBytes, this.#encoding);
    const at = this.#now();
    if (f.type !== 'problem') this.#heardAt = at;
    if (f.type === 'reply') return this.#onReply({ ...f.reply, msg: this.redact(f.reply.msg) }, at);
    if (f.type === 'push') return this.#onPush(f, at);
    const count = ++this.#counts[PROBLEM_COUNT[f.problem]];
    const sample = f.sample === undefined ? undefined : this.redact(f.sample);
    this.emit({ type: 'frame', problem: f.problem, why: this.redact(f.why), ...(sample && { sample }), count });
  }

  /** A JSON push or a decoded binary one: counted against its stream and handed on, alike. */
  #onPush(f: Extract<Frame, { type: 'push' }>, at: number): void {
    this.#counts.pushes++;
    if (f.encoding === 'protobuf') {
      this.#streams.push(f.stream, at);
      this.emit({ type: 'push', encoding: 'protobuf', stream: f.stream, body: f.body, json: f.json, at });
      return;
    }
    this.#streams.push(f.push.c, at);
    // Masked before it is clipped, so that no part of a listen key is left at the cut.
    const text = f.text === undefined ? {} : { text: clip(this.redact(f.text), BOUNDS.pushTextChars) };
    this.emit({
      type: 'push',
      encoding: 'json',
      stream: f.push.c,
      kind: f.kind,
      push: f.push,
      json: f.json,
      ...text,
      at,
    });
  }

  #onReply(reply: Reply, at: number): void {
    this.#counts.replies++;
    if (reply.code === 0 && reply.msg === PONG) this.#counts.pongs++;
    const p = this.#pending.take(reply);
    this.emit({ type: 'reply', reply, ...(p && { request: sentMessage(p) }), at });
    if (p?.streams === undefined) return;
    const ok = reply.code === 0;
    const change = p.method === 'UNSUBSCRIPTION' ? 'unsubscribe' : 'subscribe';
    const outcomes = p.streams.map((stream) => {
      if (change === 'subscribe') {
        if (ok) this.#streams.set(stream, 'subscribed');
        else this.#streams.refuse(stream, reply.code, reply.msg);
      } else if (ok) this.#streams.remove(stream);
      else this.#streams.set(stream, 'subscribed');
      const outcome: SubscriptionOutcome = ok ? { stream, ok } : { stream, ok, code: reply.code, msg: reply.msg };
      this.emit({ type: 'subscription', outcome, change });
      return outcome;
    });
    p.settle?.(outcomes);
  }

  /** Sweeps at the oldest message's deadline, then the next one's: no timer while nothing awaits a reply. */
  #armSweep(): void {
    const oldest = this.#pending.oldestSentAt();
    if (this.#sweepTimer !== undefined || this.#finalised || oldest === undefined) return;
    // One past the deadline: expire takes what was sent strictly before now - replyTimeoutMs.
    const wait = Math.max(1, oldest + this.#o.replyTimeoutMs + 1 - this.#now());
    this.#sweepTimer = setTimeout(() => {
      this.#sweepTimer = undefined;
      this.#expireReplies();
      this.#armSweep();
    }, wait);
    this.#sweepTimer.unref();
  }

  #expireReplies(): void {
    const s = this.#o.replyTimeoutMs / 1000;
    const expired = this.#pending.expire(this.#now() - this.#o.replyTimeoutMs);
    // The service answers every message (docs/websocket.md): a server that said nothing since is gone, not slow.
    const unheard = expired.find((p) => p.sentAt > this.#heardAt);
    if (unheard !== undefined) return this.#giveUpServer(unheard, expired);
    for (const p of expired) {
      if (p.streams === undefined) continue;
      const message = t('No reply to {0} {1} (id {2}) within {3} s.', p.method, p.streams.join(', '), p.id, s);
      this.emit({ type: 'error', failure: { kind: 'reply-timeout', message } });
      this.#giveUp(p, t('no reply within {0} s', s));
    }
  }

  /** Drops a connection whose server answered nothing to `unheard` (nor anything else since): it ends, 1006. */
  #giveUpServer(unheard: Pending, expired: readonly Pending[]): void {
    const what = `${unheard.method}${unheard.streams === undefined ? '' : ` ${unheard.streams.join(', ')}`}`;
    const values = [this.#o.replyTimeoutMs / 1000, what, unheard.id] as const;
    const silence = t('the server answered nothing within {0} s of {1} (id {2})', ...values);
    for (const p of expired) this.#giveUp(p, silence);
    this.#closeRequested = true;
    const message = t(
      'The server answered nothing within {0} s of {1} (id {2}): the client gave the connection up. Connect again when the server answers.',
      ...values,
    );
    this.#finalise({
      ...this.#state,
      status: 'closed',
      closedAt: this.#now(),
      code: 1006,
      message: clip(this.redact(message), BOUNDS.messageChars),
    });
    this.#ws?.terminate();
  }

  #giveUp(p: Pending, why: string): void {
    if (p.streams !== undefined) p.settle?.(this.#settleWithout(p.method, p.streams, t('Unknown: {0}.', why)));
  }

  /** What becomes of streams whose message went unanswered or unsent. */
  #settleWithout(method: string, streams: readonly string[], msg: string): SubscriptionOutcome[] {
    return streams.map((stream) => {
      if (method === 'UNSUBSCRIPTION') {
        if (this.#streams.status(stream) === 'unsubscribing') this.#streams.set(stream, 'subscribed');
      } else if (this.#streams.status(stream) === 'pending') this.#streams.refuse(stream, undefined, msg);
      const outcome = { stream, ok: false, msg };
      this.emit({ type: 'subscription', outcome, change: method === 'UNSUBSCRIPTION' ? 'unsubscribe' : 'subscribe' });
      return outcome;
    });
  }

  // ------------------------------------------------------------------------------------------
  // Views

  /** Everything the stream view shows, as plain data. */
  snapshot(): ConnectionSnapshot {
    const now = this.#now();
    const s = this.#state;
    return {
      state: s,
      ageMs: s.openedAt === undefined ? undefined : (s.closedAt ?? now) - s.openedAt,
      meters: {
        streams: { used: this.#streams.used(), limit: WS_RULES.streamsPerConnection },
        messages: {
          lastSecond: this.#pacer.inLastSecond(),
          limit: WS_RULES.messagesPerSecond,
          pace: this.#pace,
          queued: this.#pacer.queued,
        },
      },
      streams: this.#streams.view(now),
      counts: { ...this.#counts },
      ...(this.#lease && { listenKey: this.#lease.masked }),
    };
  }

  #setState(state: ConnectionState): void {
    this.#state = state;
    this.emit({ type: 'state', state });
  }

  /** `text` with this connection's listen key masked: for anything shown, pushes included. */
  redact(text: string): string {
    return this.#lease?.redact(text) ?? text;
  }

  #redactFailure(f: WsFailure): WsFailure {
    return { ...f, message: this.redact(f.message) };
  }

  override toString(): string {
    return `WsConnection(${this.#state.status}${this.#state.url !== undefined ? ` ${this.#state.url}` : ''})`;
  }

  toJSON(): ConnectionSnapshot {
    return this.snapshot();
  }

  [inspect.custom](): string {
    return this.toString();
  }
}

/** Streams into SUBSCRIPTION groups: the first fills the room left under §8's 30, so a refusal past it takes no others. */
export function groupStreams(names: readonly string[], room: number): string[][] {
  const groups: string[][] = [];
  let i = 0;
  if (room > 0 && room < names.length) {
    groups.push(names.slice(0, room));
    i = room;
  }
  for (; i < names.length; i += GROUP) groups.push(names.slice(i, i + GROUP));
  return groups;
}

/** A message as readFrame takes it: a text frame as text, a binary one as its bytes. */
function frameData(data: WebSocket.RawData, binary: boolean): string | Uint8Array {
  const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
  return binary ? bytes : bytes.toString('utf8');
}

/** The URL for showing: a listenKey in its query masked. */
function displayUrl(u: URL): string {
  const shown = new URL(u.href);
  const key = shown.searchParams.get('listenKey');
  if (key !== null) shown.searchParams.set('listenKey', maskListenKey(key));
  return clip(shown.href, BOUNDS.messageChars);
}
