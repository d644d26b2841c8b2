/**
 * The sandbox's WebSocket endpoint, /ws on the HTTP port (the `ws` server in noServer mode on the
 * HTTP server's 'upgrade'). It keeps the connections and their subscriptions, answers client
 * messages (docs/websocket.md), fans pushes out, and enforces §8: at most 30
 * streams a connection (the 31st refused, the connection kept), at most 100 client messages in any
 * second (beyond it: close 1008, and CutGuard's ban), plus the deployment's connection rules: the
 * close of a connection with no subscription, of a subscribed one with no data (when the deployment
 * has that rule; a PING counts as data), the lifetime, and at most `listenKey.maxConnections` per
 * listen key. Those deadlines run on the server clock: POST /_sandbox/clock moves them (checked at
 * once), so a test closes a connection by moving the clock, not by waiting.
 * A consumer too slow to take its pushes is closed (MAX_BUFFERED_BYTES), so memory stays bounded.
 */
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { ConnectionRules } from '../../core/catalog/deployment';
import { WS_RULES } from '../../core/catalog/ws-limits';
import { foreignPageRefusal, fromForeignPage, type LogEntry, type WebSocketState } from '../control';
import { SlidingCounter, wholeSeconds } from '../limits';
import { endSocket, fail, type Reply } from '../replies';
import { CUTS_BEFORE_BAN, CUT_WINDOW_MS, CutGuard } from './guard';
import { listenKeyLapsed, listenKeyLapsedClose, type ListenKeys } from './listen-keys';
import { handleMessage } from './messages';
import type { PlayedStream, StreamReader } from './names';

/** Unsent bytes past which a connection is a slow consumer and is closed (1008). */
export const MAX_BUFFERED_BYTES = 256 * 1024;
/** Connections the sandbox holds at once; more upgrades are answered 503. */
const MAX_CONNECTIONS = 1000;
/** A client message above this is refused by closing the connection (1009, by the ws package). */
const MAX_MESSAGE_BYTES = 64 * 1024;
// A connection closed by the server is dropped if its client does not finish the close handshake in this time.
const CLOSE_GRACE_MS = 2_000;
// How often lapsed listen keys and passed deadlines are looked for (a clock a test injects moves without telling).
const SWEEP_MS = 10_000;
// setTimeout takes at most 2^31 - 1 ms.
const MAX_TIMER_MS = 2 ** 31 - 1;
const TEXT = { binary: false } as const;
const BINARY = { binary: true } as const;

/** A push as it goes on the wire: text (JSON) or binary (Protocol Buffers). */
export type Frame = string | Uint8Array;

interface HubOptions {
  /** Real time (ms): message rate windows and bans. */
  readonly now: () => number;
  /** The server clock (with the control clock offset): the `t` of pushes, listen keys, the connection deadlines. */
  readonly serverTime: () => number;
  /** §8 message rate and bans on; off for benchmarks. The 30-stream limit always holds. */
  readonly limits: boolean;
  readonly banScale: number;
  /** The deployment's connection rules, as scaled for this sandbox. */
  readonly rules: ConnectionRules;
  /** Reads the deployment's stream names. */
  readonly reader: StreamReader;
  /** A frame that is not a valid push of the deployment (POST /_sandbox/ws/malformed). */
  readonly malformed: Frame;
  readonly listenKeys: ListenKeys;
  /** Adds an entry to the request log (upgrades are logged without their query string). */
  readonly record: (entry: LogEntry) => void;
}

/** One WebSocket connection; `account` is set when it was opened with a listen key. */
class Conn {
  /** Subscribed names → their key in the hub's index. */
  readonly streams = new Map<string, string>();
  readonly rate = new SlidingCounter(WS_RULES.messagesPerSecond, 1000);
  /** Server time it opened. */
  opened = 0;
  /** Server time its idle period began: opened, lost its last subscription, or last had data (a push, a PING). */
  idleFrom = 0;
  /** The next look at its deadlines. */
  timer: NodeJS.Timeout | undefined;
  grace: NodeJS.Timeout | undefined;
  done = false;
  /** Corked for the pushes of one batch, uncorked at its end. */
  corked = false;

  constructor(
    readonly ws: WebSocket,
    /** The upgraded socket the HTTP server handed over: corked during a batch, so its pushes go in one write. */
    readonly socket: Duplex,
    readonly ip: string,
    readonly account: string | undefined,
    readonly listenKey: string | undefined,
  ) {}
}

export class WsHub {
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    perMessageDeflate: false,
    clientTracking: false,
  });
  private readonly conns = new Set<Conn>();
  private readonly index = new Map<string, Set<Conn>>();
  private readonly guard: CutGuard;
  private readonly sweep: NodeJS.Timeout;
  private paused = false;
  private batching = false;
  private readonly corked: Conn[] = [];
  /** The current state of a depth or bookTicker stream as a push, sent after it is subscribed. */
  snapshot: (name: string, stream: PlayedStream) => Frame | undefined = () => undefined;

  constructor(private readonly o: HubOptions) {
    this.guard = new CutGuard(o.banScale);
    this.sweep = setInterval(() => this.clockMoved(), SWEEP_MS);
    this.sweep.unref();
  }

  get reader(): StreamReader {
    return this.o.reader;
  }

  /** Closes what the server clock has now passed: lapsed listen keys' connections, connections past a deadline. */
  clockMoved(): void {
    const now = this.o.serverTime();
    for (const key of this.o.listenKeys.sweep(now))
      this.closeListenKey(key, listenKeyLapsedClose(this.o.listenKeys.rules));
    for (const conn of [...this.conns]) if (!conn.done) this.check(conn, now);
  }

  get connectionCount(): number {
    return this.conns.size;
  }

  /** Whether the listen key `conn` was opened with is still live (not closed nor lapsed). */
  listenKeyLive(conn: Conn): boolean {
    const now = this.o.serverTime();
    return conn.listenKey !== undefined && this.o.listenKeys.accountOf(conn.listenKey, now) === conn.account;
  }

  /** `conn` had data (a PING): its subscribed idle time starts again. */
  alive(conn: Conn): void {
    conn.idleFrom = this.o.serverTime();
  }

  hasSubscribers(key: string): boolean {
    return this.index.has(key);
  }

  /** Sends a push to every subscriber of `key` (a stream name, or privateKey()); none while paused. */
  publish(key: string, frame: Frame): void {
    const subs = this.index.get(key);
    if (subs === undefined || this.paused) return;
    const binary = typeof frame !== 'string';
    const data = binary ? frame : Buffer.from(frame, 'utf8');
    const now = this.o.serverTime();
    for (const conn of subs) {
      conn.idleFrom = now;
      this.sendTo(conn, data, binary);
    }
  }

  sendTo(conn: Conn, data: Buffer | Uint8Array | string, binary = false): void {
    const ws = conn.ws;
    if (conn.done || ws.readyState !== WebSocket.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.end(conn, 1008, `slow consumer: over ${MAX_BUFFERED_BYTES / 1024} KiB of pushes not read`);
      return;
    }
    if (this.batching && !conn.corked) {
      conn.socket.cork();
      conn.corked = true;
      this.corked.push(conn);
    }
    ws.send(data, binary ? BINARY : TEXT);
  }

  /** Runs `publish` with each touched socket corked, so a connection's pushes of one tick leave in one write. */
  batch(publish: () => void): void {
    this.batching = true;
    try {
      publish();
    } finally {
      this.batching = false;
      for (const conn of this.corked) {
        conn.corked = false;
        conn.socket.uncork();
      }
      this.corked.length = 0;
    }
  }

  /** Sends the current state of `stream` to a new subscriber (depth, bookTicker). */
  sendSnapshot(conn: Conn, name: string, stream: PlayedStream): void {
    if (this.paused) return;
    const frame = this.snapshot(name, stream);
    if (frame === undefined) return;
    conn.idleFrom = this.o.serverTime();
    this.sendTo(conn, frame, typeof frame !== 'string');
  }

  subscribe(conn: Conn, name: string, key: string): void {
    conn.streams.set(name, key);
    let subs = this.index.get(key);
    if (subs === undefined) {
      subs = new Set();
      this.index.set(key, subs);
    }
    subs.add(conn);
    // A valid subscription ends the unsubscribed idle time and starts the subscribed one.
    if (conn.streams.size === 1) this.restartIdle(conn);
  }

  unsubscribe(conn: Conn, name: string): void {
    const key = conn.streams.get(name);
    if (key === undefined) return;
    conn.streams.delete(name);
    const subs = this.index.get(key);
    subs?.delete(conn);
    if (subs?.size === 0) this.index.delete(key);
    if (conn.streams.size === 0 && !conn.done) this.restartIdle(conn);
  }

  // ------------------------------------------------------------------------------------------
  // Upgrade and connection life

  /** Answers an upgrade request (the HTTP server's 'upgrade' event). */
  upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer, ip: string): void {
    socket.on('error', () => undefined);
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const now = this.o.now();
    const refuse = (reply: Reply): void => {
      this.o.record({
        method: req.method ?? 'GET',
        path,
        status: reply.status,
        code: reply.code,
        time: this.o.serverTime(),
      });
      endSocket(socket, reply);
    };
    // A browser page may open a WebSocket anywhere: refused before the upgrade, it can cut nothing (no ban).
    if (fromForeignPage({ host: req.headers.host, origin: req.headers.origin }))
      return refuse(foreignPageRefusal(`The WebSocket endpoint ${WS_RULES.path}`));
    if (path !== WS_RULES.path && path !== WS_RULES.path + '/')
      return refuse(fail(730003, `The WebSocket endpoint is ${WS_RULES.path}, not ${path}.`, { status: 404 }));
    const banned = this.o.limits ? this.guard.bannedFor(ip, now) : 0;
    if (banned > 0) {
      const s = wholeSeconds(banned);
      return refuse(
        fail(
          429,
          `The IP ${ip} is banned from the WebSocket endpoint for ${s} s (Retry-After): it was cut ${CUTS_BEFORE_BAN} times within ${CUT_WINDOW_MS / 60_000} minutes for sending over ${WS_RULES.messagesPerSecond} messages a second (§8).`,
          { status: 418, headers: { 'Retry-After': String(s) } },
        ),
      );
    }
    if (this.conns.size >= MAX_CONNECTIONS)
      return refuse(fail(503, `The sandbox holds ${MAX_CONNECTIONS} WebSocket connections; close some first.`));
    const params = new URLSearchParams(q === -1 ? '' : url.slice(q + 1));
    const listenKey = params.get('listenKey') ?? undefined;
    const keys = this.o.listenKeys;
    const account = listenKey === undefined ? undefined : keys.accountOf(listenKey, this.o.serverTime());
    if (listenKey !== undefined && account === undefined) {
      // The key is a credential: the answer does not repeat it.
      return refuse(fail(401, listenKeyLapsed(keys.rules)));
    }
    if (listenKey !== undefined && this.carrying(listenKey) >= keys.rules.maxConnections) {
      const max = keys.rules.maxConnections;
      return refuse(
        fail(26, `A listen key carries at most ${max} connections at once; close one of its connections first.`, {
          status: 409,
        }),
      );
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      this.o.record({ method: req.method ?? 'GET', path, status: 101, code: null, time: this.o.serverTime() });
      this.open(new Conn(ws, socket, ip, account, listenKey));
    });
  }

  /** The open connections of `listenKey`. */
  private carrying(listenKey: string): number {
    let n = 0;
    for (const conn of this.conns) if (!conn.done && conn.listenKey === listenKey) n++;
    return n;
  }

  private open(conn: Conn): void {
    const ws = conn.ws;
    this.conns.add(conn);
    conn.opened = conn.idleFrom = this.o.serverTime();
    this.arm(conn, this.o.serverTime());
    ws.on('message', (data: RawData, isBinary: boolean) => this.onMessage(conn, data, isBinary));
    ws.on('error', () => undefined);
    ws.on('close', () => this.forget(conn));
  }

  private onMessage(conn: Conn, data: RawData, isBinary: boolean): void {
    if (conn.done) return;
    const now = this.o.now();
    if (this.o.limits && conn.rate.take(now, 1) !== 0) {
      this.end(conn, 1008, `over ${WS_RULES.messagesPerSecond} messages in one second (§8 WebSocket message rate)`);
      this.guard.cut(conn.ip, now);
      return;
    }
    handleMessage(this, conn, data, isBinary);
  }

  private restartIdle(conn: Conn): void {
    const now = this.o.serverTime();
    conn.idleFrom = now;
    this.arm(conn, now);
  }

  /** Why `conn` is to close at server time `now`, or undefined and when to look again (server time). */
  private due(conn: Conn, now: number): { readonly reason?: string; readonly next: number } {
    const { lifetimeMs, idleUnsubscribedMs, idleSubscribedMs } = this.o.rules;
    const end = conn.opened + lifetimeMs;
    if (now >= end) return { reason: `connections are closed after ${durationText(lifetimeMs)}`, next: end };
    if (conn.streams.size === 0) {
      const idle = conn.idleFrom + idleUnsubscribedMs;
      if (now >= idle) return { reason: `no subscription for ${durationText(idleUnsubscribedMs)}`, next: idle };
      return { next: Math.min(end, idle) };
    }
    if (idleSubscribedMs === undefined) return { next: end };
    const quiet = conn.idleFrom + idleSubscribedMs;
    if (now >= quiet) return { reason: `no data for ${durationText(idleSubscribedMs)} (a PING keeps it)`, next: quiet };
    return { next: Math.min(end, quiet) };
  }

  /** Closes `conn` if a deadline has passed, else looks again when the next one is due. */
  private check(conn: Conn, now: number): void {
    const due = this.due(conn, now);
    if (due.reason !== undefined) this.end(conn, 1000, due.reason);
    else this.arm(conn, now, due.next);
  }

  /** Looks at `conn` again when its next deadline is due, assuming the server clock runs with real time. */
  private arm(conn: Conn, now: number, next = this.due(conn, now).next): void {
    clearTimeout(conn.timer);
    const wait = Math.min(Math.max(1, next - now), MAX_TIMER_MS);
    conn.timer = setTimeout(() => {
      if (!conn.done) this.check(conn, this.o.serverTime());
    }, wait);
    conn.timer.unref();
  }

  /** Stops pushes to `conn` at once, sends a close frame, and drops it if the client does not answer. */
  end(conn: Conn, code: number, reason: string): void {
    if (conn.done) return;
    conn.done = true;
    this.release(conn);
    conn.ws.close(code, reason);
    conn.grace = setTimeout(() => conn.ws.terminate(), CLOSE_GRACE_MS);
    conn.grace.unref();
  }

  private release(conn: Conn): void {
    for (const name of [...conn.streams.keys()]) this.unsubscribe(conn, name);
    clearTimeout(conn.timer);
  }

  private forget(conn: Conn): void {
    conn.done = true;
    this.release(conn);
    clearTimeout(conn.grace);
    this.conns.delete(conn);
  }

  /** Closes the connections opened with `listenKey` (DELETE /api/v3/userDataStream, lapse). */
  closeListenKey(listenKey: string, reason: string): void {
    for (const conn of this.conns) if (conn.listenKey === listenKey) this.end(conn, 1000, reason);
  }

  // ------------------------------------------------------------------------------------------
  // Faults and reset (control surface)

  /** Drops every connection with no close frame (the client sees 1006); returns how many. */
  dropAll(): number {
    const n = this.conns.size;
    for (const conn of [...this.conns]) {
      conn.done = true;
      this.release(conn);
      conn.ws.terminate();
    }
    return n;
  }

  state(): WebSocketState {
    let connections = 0;
    let subscriptions = 0;
    for (const conn of this.conns) {
      if (conn.done) continue;
      connections++;
      subscriptions += conn.streams.size;
    }
    return { connections, subscriptions, paused: this.paused };
  }

  setPaused(paused: boolean): void {
    this.paused = paused;
  }

  /** Sends one frame that is not a valid push (JSON cut short, or bytes that are no wrapper) to every connection; returns how many. */
  sendMalformed(): number {
    let n = 0;
    const frame = this.o.malformed;
    for (const conn of this.conns) {
      if (conn.done || conn.ws.readyState !== WebSocket.OPEN) continue;
      conn.ws.send(frame, typeof frame === 'string' ? TEXT : BINARY);
      n++;
    }
    return n;
  }

  /** Back to start: connections dropped, bans and cuts forgotten, pushes resumed. */
  reset(): void {
    this.dropAll();
    this.guard.reset();
    this.paused = false;
  }

  close(): void {
    clearInterval(this.sweep);
    this.dropAll();
    this.wss.close();
  }
}

function durationText(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} hours`;
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}
