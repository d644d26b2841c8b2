/**
 * `tradereq listen`: connects a WebSocket request of a file (docs/format.md, "WebSocket requests") with
 * the WebSocket client core, subscribes its streams, sends its messages, prints each push until
 * its bound (flags, else `# @listen`, else Ctrl-C or SIGTERM) and checks its `# @expect message`
 * lines. Pushes are hostile: everything printed goes through the terminal writer, and a listen key
 * is shown only masked.
 */
import { BOUNDS, OPTION_MAX } from '../core/bounds';
import { Budget } from '../core/budget/budget';
import { WS_RULES } from '../core/catalog/ws-limits';
import { deploymentOf } from '../core/catalog/deployment';
import { defaultStateDir, FileStateStore } from '../core/budget/state';
import { ClockSync } from '../core/clock/sync';
import { isWebSocket } from '../core/format/model';
import { defaultContext } from '../core/format/variables';
import { NodeHttpSender } from '../core/net/node-http-sender';
import type { Network } from '../core/net/network';
import { DEFAULT_SEND_SETTINGS, type Sender } from '../core/net/send';
import { MessageExpectations, RECONNECT, WS_DEFAULTS, WsConnection, WsSession } from '../core/ws';
import type { ConnectResult, ResolvedWsRequest, WsFailure } from '../core/ws';
import { restListenKeyApi, type ListenKeyCallFailure } from '../core/ws/listen-key-api';
import type { ListenBound } from '../core/ws/resolved-request';
import { resolveWsRequest } from '../core/ws/resolved-request';
import { integerFlag, parseCommand } from './args';
import { droppedFrames, ListenOutput, type EndReason } from './listen-output';
import { LISTEN, NETWORK } from './messages';
import { keySource, loadTarget, location, type Target } from './prepare';
import { cliNetwork, NETWORK_OPTIONS } from './network';
import { EXIT } from './send';
import { UsageError, type Io } from './usage';

const LISTEN_OPTIONS = {
  request: { type: 'string' },
  env: { type: 'string' },
  count: { type: 'string' },
  duration: { type: 'string' },
  'connect-timeout': { type: 'string' },
  'reply-timeout': { type: 'string' },
  json: { type: 'boolean' },
  'no-reconnect': { type: 'boolean' },
  ...NETWORK_OPTIONS,
} as const;

function listenHelp(): string {
  return LISTEN.help({
    maxPushes: OPTION_MAX.pushes,
    maxSeconds: WS_RULES.lifetimeMs / 1000,
    connectTimeoutMs: WS_DEFAULTS.connectTimeoutMs,
    replyTimeoutMs: WS_DEFAULTS.replyTimeoutMs,
    maxTimeoutMs: OPTION_MAX.timeoutMs,
    jsonDepth: BOUNDS.prettyJsonDepth,
    pushTextChars: BOUNDS.pushTextChars,
    reconnectMaxSeconds: RECONNECT.maxMs / 1000,
    reconnectAttempts: RECONNECT.maxAttempts,
    network: NETWORK.help,
  });
}

export async function listenCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommand('listen', args, LISTEN_OPTIONS);
  if (values.help) {
    io.out(listenHelp());
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError(LISTEN.takesOneFile);
  const count = integerFlag('count', values.count, 1, OPTION_MAX.pushes);
  const seconds = integerFlag('duration', values.duration, 1, WS_RULES.lifetimeMs / 1000);
  const connectTimeoutMs = integerFlag('connect-timeout', values['connect-timeout'], 1, OPTION_MAX.timeoutMs);
  const replyTimeoutMs = integerFlag('reply-timeout', values['reply-timeout'], 1, OPTION_MAX.timeoutMs);
  const target = loadTarget(io, { file: positionals[0]!, request: values.request, env: values.env });
  const resolved = resolveTarget(target);
  // The command line's flags override the request's # @listen.
  const bound: ListenBound =
    count !== undefined || seconds !== undefined
      ? { count, durationMs: seconds === undefined ? undefined : seconds * 1000 }
      : resolved.listen;
  const network = cliNetwork(values, io.env);
  const sender = new NodeHttpSender(DEFAULT_SEND_SETTINGS, network);
  try {
    const json = values.json === true;
    const reconnect = values['no-reconnect'] !== true;
    const deps = { sender, network, json, reconnect, connectTimeoutMs, replyTimeoutMs };
    return await listen(io, target, resolved, bound, deps);
  } finally {
    await sender.close();
  }
}

/** The one WebSocket request of the target, resolved; bad input is a usage error (exit 2). */
function resolveTarget(target: Target): ResolvedWsRequest {
  const request = target.requests[0]!;
  const file = target.file;
  const rl = request.requestLine;
  if (!isWebSocket(request))
    throw new UsageError(
      LISTEN.notWebSocket(location(file, rl.range.startLine, rl.range.startChar), rl.method.text, rl.target.text),
    );
  // Its `# @expect message` lines are judged here: their variables resolve too.
  const r = resolveWsRequest(file.doc, request, defaultContext(target.environment, { expectations: true }));
  if (r.ok) return r.value;
  const d = r.error[0]!;
  throw new UsageError(`${location(file, d.range.startLine, d.range.startChar)}: ${d.message}`);
}

interface ListenDeps {
  readonly sender: Sender;
  /** The command's route (proxy, certificates), shared by the listen-key calls and the WebSocket. */
  readonly network: Network;
  readonly json: boolean;
  /** Re-open a connection the server closed (not with --no-reconnect). */
  readonly reconnect: boolean;
  readonly connectTimeoutMs: number | undefined;
  readonly replyTimeoutMs: number | undefined;
}

async function listen(
  io: Io,
  target: Target,
  r: ResolvedWsRequest,
  bound: ListenBound,
  deps: ListenDeps,
): Promise<number> {
  const store = new FileStateStore(defaultStateDir(io.env));
  const budget = new Budget(store);
  const keyFailures: ListenKeyCallFailure[] = [];
  const listenKey = r.listenKey
    ? restListenKeyApi({
        environment: r.environment,
        keyProfile: r.keyProfile,
        key: keySource(target, io.env),
        sender: deps.sender,
        budget,
        clock: new ClockSync(store),
        clockSync: true,
        onFailure: (f) => keyFailures.push(f),
      })
    : undefined;
  const { connectTimeoutMs, replyTimeoutMs, network } = deps;
  const { restBaseUrl, streamEncoding } = r;
  const conn = new WsSession({
    connection: () =>
      new WsConnection({ budget, restBaseUrl, connectTimeoutMs, replyTimeoutMs, network, streamEncoding }),
    reconnect: deps.reconnect,
  });
  // Whatever is printed, a push that echoes the listen key included, shows the key masked.
  const shown: Io = { ...io, out: (t) => io.out(conn.redact(t)), err: (t) => io.err(conn.redact(t)) };
  const run = new ListenRun(conn, new ListenOutput(shown, deps.json), r, bound);
  // The key is renewed as often as the environment's deployment says (deployment.listenKey.renewEveryMs).
  const keepAliveMs = deploymentOf(r.environment).listenKey.renewEveryMs;
  return run.run(
    () => conn.connect(r.url, listenKey && { listenKey, envWsUrl: r.envWsUrl, keepAliveMs }),
    (f) => connectExit(f, keyFailures[0]),
  );
}

/** The exit code of a connection that never opened. */
function connectExit(f: WsFailure, key: ListenKeyCallFailure | undefined): number {
  if (f.kind === 'gate') return EXIT.refused;
  if (f.kind === 'usage') return EXIT.badInput;
  if (f.kind === 'listen-key' && key !== undefined) {
    if (key.kind === 'refused') return EXIT.refused;
    if (key.kind === 'bad-input' || key.kind === 'no-key') return EXIT.badInput;
  }
  return EXIT.rejected;
}

const END_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
const FAILURES = ['uncaughtException', 'unhandledRejection'] as const;

/** One run over an open connection: pushes counted and checked, until its bound or the server's close. */
class ListenRun {
  private readonly expectations: MessageExpectations;
  private pushes = 0;
  private failed = false;
  private ended = false;
  private reason: EndReason | undefined;
  private crashed = false;
  private connected = false;
  /** Until connected, a failure is told once, by failedToConnect, not also as an error event. */
  private quiet = true;
  private finish: (reason: EndReason) => void = () => undefined;
  private readonly end: Promise<EndReason>;
  private readonly started = Date.now();

  constructor(
    private readonly conn: WsSession,
    private readonly out: ListenOutput,
    private readonly r: ResolvedWsRequest,
    private readonly bound: ListenBound,
  ) {
    this.expectations = new MessageExpectations(r.expectations);
    this.end = new Promise((resolve) => (this.finish = resolve));
    this.watch();
  }

  /**
   * Connects and listens. Whatever ends the run (its bound, the server, Ctrl-C or SIGTERM, an error
   * nobody caught) ends it here: the connection and the listen key it holds are closed, within
   * WS_DEFAULTS' close grace and release timeout, before the exit code is known.
   */
  async run(connect: () => Promise<ConnectResult>, exitOf: (f: WsFailure) => number): Promise<number> {
    const onSignal = (): void => this.stop('signal');
    const onFailure = (e: unknown): void => this.crash(e);
    for (const s of END_SIGNALS) process.on(s, onSignal);
    for (const f of FAILURES) process.on(f, onFailure);
    try {
      const connected = await connect();
      return connected.ok ? await this.listen() : await this.failedToConnect(connected.error, exitOf(connected.error));
    } finally {
      for (const s of END_SIGNALS) process.off(s, onSignal);
      for (const f of FAILURES) process.off(f, onFailure);
    }
  }

  /** Events of the connection, printed as they come; the end is told by the count or the close. */
  private watch(): void {
    const c = this.conn;
    const on: typeof c.on = (type, listener) => c.on(type, (e) => this.guarded(() => listener(e)));
    on('push', (e) => {
      if (this.ended) return;
      this.pushes++;
      this.expectations.observe(e.json);
      this.out.push(e);
      if (this.bound.count !== undefined && this.pushes >= this.bound.count) this.stop('count');
    });
    on('reply', (e) => {
      if (e.request?.origin !== 'user') return;
      this.out.reply(e.reply);
      // A message of the request refused by the server: the run fails (docs/cli.md, exit 1).
      if (e.reply.code !== 0 && !this.ended) this.failed = true;
    });
    on('subscription', (e) => {
      if (e.change !== 'subscribe' || this.ended) return;
      this.out.subscription(e.outcome);
      if (!e.outcome.ok) this.failed = true;
    });
    on('frame', (e) => this.out.frame(e));
    on('gap', (e) => !this.ended && this.out.gap(e.gap));
    on('error', (e) => !this.quiet && this.out.error(e.failure));
    on('state', (e) => {
      if (e.state.status === 'closed') this.stop('closed');
    });
  }

  /** Runs `f`; a throw in it (a failed write, a bug) ends the run instead of the process. */
  private guarded(f: () => void): void {
    try {
      f();
    } catch (e) {
      this.crash(e);
    }
  }

  /** An error nobody caught: told once, then the run ends as any other, closing what it opened. */
  private crash(e: unknown): void {
    if (this.crashed) return;
    this.crashed = true;
    this.failed = true;
    this.guarded(() => this.out.unexpected(e instanceof Error ? e.message : String(e)));
    this.stop('error');
  }

  private stop(reason: EndReason): void {
    if (this.ended) return;
    this.ended = true;
    this.reason = reason;
    this.finish(reason);
    // Before the run listens nothing awaits its end: the connect is cut short (a listen key obtained is closed).
    if (!this.connected) void this.conn.close();
  }

  /** A connection that never opened: told, and its listen key (if one was obtained) closed before the exit. */
  private async failedToConnect(f: WsFailure, exit: number): Promise<number> {
    const message = this.reason === 'signal' ? LISTEN.interruptedBeforeOpen : f.message;
    this.out.end({ reason: 'failed', pushes: 0, ms: 0, message, expectations: [], exit });
    // From now on a failure to close the listen key is told.
    this.quiet = false;
    await this.conn.finished;
    return exit;
  }

  private async listen(): Promise<number> {
    this.connected = true;
    this.quiet = false;
    this.out.connected(this.conn.snapshot());
    const timer =
      this.bound.durationMs === undefined ? undefined : setTimeout(() => this.stop('duration'), this.bound.durationMs);
    try {
      // Ctrl-C while a subscription awaits its reply ends the run at once.
      await Promise.race([this.start(), this.end]);
      const reason = await this.end;
      return await this.close(reason);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Subscribes the streams, then sends the messages in order; a refusal fails the run. */
  private async start(): Promise<void> {
    // Each outcome is printed from its event, in order with the pushes that follow it.
    if (this.r.streams.length > 0) await this.conn.subscribe(this.r.streams);
    for (const m of this.r.messages) {
      if (this.ended) return;
      const sent = await this.conn.send(m);
      if (!sent.ok) {
        this.failed = true;
        this.out.error({ kind: 'usage', message: sent.error });
      }
    }
  }

  /** Closes (unless the server did), then prints the end and the expectations; the exit code. */
  private async close(reason: EndReason): Promise<number> {
    if (reason !== 'closed') await this.conn.close();
    await this.conn.finished;
    const state = this.conn.state;
    const results = this.expectations.results();
    const cut = reason === 'closed';
    const ok = !this.failed && !cut && results.every((e) => e.passed);
    const exit = ok ? EXIT.ok : EXIT.rejected;
    this.out.end({
      reason,
      pushes: this.pushes,
      ms: Date.now() - this.started,
      bound: this.bound,
      ...(cut && { code: state.code, closeReason: state.reason, message: state.message }),
      gaps: this.conn.snapshot().gaps ?? [],
      expectations: results,
      exit,
      dropped: droppedFrames(this.conn.snapshot().counts),
    });
    return exit;
  }
}
