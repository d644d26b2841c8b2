/**
 * The sender of the command line and the editor: Node's own http and https clients behind the
 * Sender interface (keep-alive, connect timing, timeouts, deadline, size cap, failure phases), over
 * the connections of network.ts (direct, or a CONNECT tunnel through a proxy). It loads in a
 * fraction of undici's start-up time and memory, which is most of what a one-shot `tradereq send`
 * costs, and keeps undici out of the editor's first Send.
 */
import * as http from 'node:http';
import type { Socket } from 'node:net';
import { Network, type Connection } from './network';
import type { PreparedRequest } from './send';
import {
  DEFAULT_SEND_SETTINGS,
  FAILURE_CODES,
  failurePhase,
  proxyFailureCode,
  roundMs,
  type SendResult,
  type SendSettings,
  type Sender,
} from './send';

/** A sender owns its Network: close() closes both. */
export class NodeHttpSender implements Sender {
  constructor(
    readonly settings: SendSettings = DEFAULT_SEND_SETTINGS,
    private readonly network: Network = new Network(),
  ) {}

  async send(p: PreparedRequest): Promise<SendResult> {
    const start = nowMs();
    let url: URL;
    try {
      url = new URL(p.url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new Error(`${url.protocol} is not http: or https:`);
    } catch (e) {
      return new Exchange(p, this.settings, start, () => undefined).refused(e);
    }
    const connection = await this.network.connection(url, p.signed);
    if (!connection.ok) {
      const e = failure(FAILURE_CODES.routeRefused, connection.error);
      return new Exchange(p, this.settings, start, () => undefined).refused(e, FAILURE_CODES.routeRefused);
    }
    return new Promise((resolve) => new Exchange(p, this.settings, start, resolve).run(connection.value, url));
  }

  close(): Promise<void> {
    this.network.close();
    return Promise.resolve();
  }
}

/** Milliseconds on the monotonic clock: process.hrtime needs no module (perf_hooks costs a one-shot command its load). */
function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** An error of this sender's own making, with the code the messages of describeFailure know. */
function failure(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

/** One request and its answer; settles once, with the first of answer, failure or timeout. */
class Exchange {
  private connected = false;
  private connectMs = 0;
  private firstByteMs = 0;
  private done = false;
  private headersTimer: NodeJS.Timeout | undefined;
  private readonly timers: NodeJS.Timeout[] = [];
  private req: http.ClientRequest | undefined;
  /** The proxy carrying the connection, and whether its tunnel is open (what a failure is then of). */
  private via: string | undefined;
  private tunnelled = false;

  constructor(
    private readonly p: PreparedRequest,
    private readonly settings: SendSettings,
    private readonly start: number,
    private readonly resolve: (r: SendResult) => void,
  ) {}

  run(connection: Connection, url: URL): void {
    const headers: http.OutgoingHttpHeaders = Object.fromEntries(this.p.headers);
    if (this.p.body.length > 0) headers['content-length'] = Buffer.byteLength(this.p.body);
    this.via = connection.proxy?.shown;
    try {
      // Options rather than the URL: user:password in a URL must not become an Authorization header.
      // Not through http.request: VS Code's extension host reroutes that by its proxy settings; network.ts routes.
      this.req = new http.ClientRequest({
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: url.port,
        path: url.pathname + url.search,
        method: this.p.method,
        headers,
        agent: connection.agent,
      });
    } catch (e) {
      // Node checks the method, path and headers before it connects: nothing was sent.
      this.resolve(this.refused(e));
      return;
    }
    const req = this.req;
    this.timer(this.settings.deadlineMs, FAILURE_CODES.deadline, 'the exchange took longer than its deadline');
    // From here: opening the connection, through the proxy's CONNECT when there is one, is bounded.
    const connectTimer = this.timer(this.settings.connectTimeoutMs, FAILURE_CODES.connectTimeout, 'connect timeout');
    req.on('proxyConnect', (answer: { statusCode?: number }) => this.onProxyConnect(answer.statusCode ?? 0));
    req.on('socket', (socket: Socket) => this.onSocket(req, socket, connection.tls, connectTimer));
    req.on('response', (res) => this.onResponse(res));
    req.on('error', (e) => this.fail(e));
    req.end(this.p.body.length > 0 ? this.p.body : undefined);
  }

  /** A failure before anything could be written: the request cannot be sent as it is. */
  refused(e: unknown, code: string = FAILURE_CODES.invalidRequest): SendResult {
    this.done = true;
    const message = e instanceof Error ? e.message : String(e);
    return this.failureResult(code, message);
  }

  /** The proxy's answer to CONNECT: anything but 200 ends the exchange, and nothing of the request went out. */
  private onProxyConnect(status: number): void {
    if (status === 200) this.tunnelled = true;
    else this.fail(failure(`PROXY_${status}`, `the proxy answered ${status} to CONNECT`));
  }

  private onSocket(req: http.ClientRequest, socket: Socket, tls: boolean, connectTimer: NodeJS.Timeout): void {
    // A kept-alive socket is open already; a new one (a tunnel's too) is open when its TLS or TCP handshake ends.
    if (req.reusedSocket || (!tls && !socket.connecting)) return this.onConnected(connectTimer);
    socket.once(tls ? 'secureConnect' : 'connect', () => this.onConnected(connectTimer));
  }

  private onConnected(connectTimer: NodeJS.Timeout): void {
    clearTimeout(connectTimer);
    this.connected = true;
    this.connectMs = this.req?.reusedSocket ? 0 : nowMs() - this.start;
    this.headersTimer = this.timer(this.settings.headersTimeoutMs, FAILURE_CODES.headersTimeout, 'no headers in time');
  }

  private onResponse(res: http.IncomingMessage): void {
    this.firstByteMs = nowMs() - this.start;
    clearTimeout(this.headersTimer);
    const bodyTimer = this.timer(this.settings.bodyTimeoutMs, FAILURE_CODES.bodyTimeout, 'the body stalled');
    const chunks: Buffer[] = [];
    let kept = 0;
    let total = 0;
    res.on('data', (buf: Buffer) => {
      bodyTimer.refresh();
      total += buf.length;
      if (kept < this.settings.maxResponseBytes) {
        const part = buf.subarray(0, this.settings.maxResponseBytes - kept);
        chunks.push(part);
        kept += part.length;
      }
    });
    res.on('error', (e) => this.fail(e));
    res.on('close', () => {
      if (!res.complete) this.fail(failure(FAILURE_CODES.closed, 'the connection closed before the whole answer'));
    });
    res.on('end', () => {
      if (this.settle()) return;
      const headers: Record<string, string> = {};
      for (const [name, values] of Object.entries(res.headersDistinct)) if (values) headers[name] = values.join(', ');
      this.resolve({
        kind: 'response',
        status: res.statusCode ?? 0,
        headers,
        bodyText: Buffer.concat(chunks).toString('utf8'),
        bodyBytes: total,
        truncated: total > kept,
        timings: this.timings(),
      });
    });
  }

  /** A timer that ends the exchange with `code` unless it settles first. */
  private timer(ms: number, code: string, message: string): NodeJS.Timeout {
    const t = setTimeout(() => {
      const e = failure(code, message);
      this.fail(e);
      this.req?.destroy(e);
    }, ms);
    this.timers.push(t);
    return t;
  }

  private fail(e: Error): void {
    if (this.settle()) return;
    const raw = (e as NodeJS.ErrnoException).code ?? 'UNKNOWN';
    // Before its tunnel opens, a failure to connect is the proxy's, not the origin's.
    const code = this.via !== undefined && !this.tunnelled ? proxyFailureCode(raw) : raw;
    this.req?.destroy();
    this.resolve(this.failureResult(code, e.message));
  }

  /** Marks the exchange settled and stops its timers; true when it already was. */
  private settle(): boolean {
    if (this.done) return true;
    this.done = true;
    for (const t of this.timers) clearTimeout(t);
    return false;
  }

  private failureResult(code: string, message: string): SendResult {
    const phase = failurePhase(code, this.connected);
    return { kind: 'failure', phase, code, message, via: this.via, timings: this.timings() };
  }

  private timings(): SendResult['timings'] {
    return {
      connectMs: roundMs(this.connectMs),
      firstByteMs: roundMs(this.firstByteMs),
      totalMs: roundMs(nowMs() - this.start),
    };
  }
}
