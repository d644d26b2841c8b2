/**
 * The sandbox's HTTP server and the order every API request goes through: route (404, 405) →
 * ban and rate limit (418, 429; refused requests consume no weight) → parameters read →
 * authentication (signed endpoints) → parameter checks → business logic → injected fault (the
 * request was carried out) → latency. Everything under /_sandbox goes to the control surface.
 */
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import type { ConnectionRules, Deployment } from '../core/catalog/deployment';
import type { EndpointInfo } from '../core/catalog/types';
import { USED_WEIGHT_HEADER } from '../core/catalog/limits';
import { DEMO_ACCOUNTS } from '../core/env/demo';
import { createHandlers, type UserStreams } from './api';
import { KEY_ACCOUNTS, apiKeyOf, authenticate, type KeyAccount } from './auth';
import {
  CONTROL_PREFIX,
  handleControl,
  plainAddress,
  type ControlTarget,
  type Fault,
  type LogEntry,
  type WebSocketState,
} from './control';
import { MatchingEngine } from './engine';
import { RateLimiter, rateOf } from './limits';
import { parseParams } from './params';
import { JSON_CONTENT_TYPE, endSocket, fail, refusal, value, type Answer, type Reply } from './replies';
import { MarketFeed } from './ws/feed';
import { WsHub } from './ws/hub';
import { streamPlay } from './ws/play';
import { ListenKeys } from './ws/listen-keys';
import { RouteTable, otherKeyHeaders, type Route } from './routes';

/** Bodies above this are answered 413 (hostile or mistaken input). */
const MAX_BODY_BYTES = 1024 * 1024;
// Past this much of an oversized body the connection is dropped instead of drained.
const MAX_DRAIN_BYTES = 16 * 1024 * 1024;
/** The request log keeps the latest entries only. */
const MAX_LOG_ENTRIES = 10_000;

interface ServerOptions {
  /** The deployment the sandbox plays: its key header, catalog, listen keys, streams and connection rules. */
  readonly deployment: Deployment;
  /** The endpoints of its catalog: those the sandbox has no handler for are answered 501. */
  readonly endpoints: readonly EndpointInfo[];
  readonly banScale: number;
  readonly limits: boolean;
  readonly now: () => number;
  /** The deployment's connection rules, as scaled for this sandbox (its idle closes and lifetime). */
  readonly connection: ConnectionRules;
  /** Serves HTTPS and WSS with this certificate and its key (PEM, kept in memory), else plain HTTP and WS. */
  readonly tls?: { readonly cert: string; readonly key: string };
  /** Symbols exchangeInfo lists after the sandbox's own (SandboxOptions.listedSymbols). */
  readonly listedSymbols: readonly object[];
}

const TIMEOUTS = { keepAliveTimeout: 5_000, headersTimeout: 10_000, requestTimeout: 30_000 } as const;

/** An API request as it arrived, body read. */
interface ApiCall {
  readonly req: http.IncomingMessage;
  readonly method: string;
  /** The path without the query string. */
  readonly path: string;
  readonly rawQuery: string;
  readonly body: string;
  /** Server time when the request arrived. */
  readonly received: number;
}

function clientIp(socket: Socket): string {
  return plainAddress(socket.remoteAddress ?? '');
}

function faultReply(status: number): Reply {
  // §7.2 has codes for 500, 503 and 504; other 5xx statuses carry 500.
  const code = status === 500 || status === 503 || status === 504 ? status : 500;
  return fail(
    code,
    'Injected by POST /_sandbox/fault: the request was carried out before this answer (§7.1: the outcome of a 5XX is unknown).',
    { status },
  );
}

export class SandboxServer implements ControlTarget {
  readonly http: http.Server;
  private readonly engine = new MatchingEngine(DEMO_ACCOUNTS.map((d) => d.name));
  private readonly limiter: RateLimiter;
  private readonly routes: RouteTable;
  private readonly deployment: Deployment;
  /** The header the deployment carries the API key in, lower-case as Node gives headers. */
  private readonly keyHeader: string;
  private readonly strayHeaders: readonly string[];
  private readonly now: () => number;
  private readonly limits: boolean;
  private clockOffset = 0;
  private latencyMs = 0;
  private fault: { status: number; remaining: number; path: string | undefined } | undefined;
  private log: LogEntry[] = [];
  private logHead = 0;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly listenKeys: ListenKeys;
  private readonly hub: WsHub;
  private readonly feed: MarketFeed;

  constructor(options: ServerOptions) {
    this.now = options.now;
    this.limits = options.limits;
    this.deployment = options.deployment;
    this.keyHeader = options.deployment.apiKeyHeader.toLowerCase();
    this.strayHeaders = otherKeyHeaders(options.deployment);
    this.listenKeys = new ListenKeys(options.deployment.id, options.deployment.listenKey);
    this.limiter = new RateLimiter(options.banScale);
    const play = streamPlay(options.deployment);
    this.hub = new WsHub({
      now: this.now,
      serverTime: () => this.serverTime(),
      limits: options.limits,
      banScale: options.banScale,
      rules: options.connection,
      reader: play.reader,
      malformed: play.framing.malformed,
      listenKeys: this.listenKeys,
      record: (entry) => this.record(entry),
    });
    this.feed = new MarketFeed(this.hub, this.engine, () => this.serverTime(), play.framing);
    this.hub.snapshot = (name, stream) => this.feed.snapshot(name, stream);
    this.engine.listener = this.feed;
    this.routes = new RouteTable(
      options.deployment,
      options.endpoints,
      createHandlers(this.engine, this.userStreams(), options.listedSymbols),
    );
    this.engine.reset(this.serverTime());
    const onRequest = (req: http.IncomingMessage, res: http.ServerResponse): void => this.onRequest(req, res);
    // One server either way: the WebSocket endpoint is its 'upgrade', so WSS comes with HTTPS.
    this.http = options.tls
      ? https.createServer({ ...TIMEOUTS, cert: options.tls.cert, key: options.tls.key }, onRequest)
      : http.createServer(TIMEOUTS, onRequest);
    this.http.on('upgrade', (req: http.IncomingMessage, socket: Socket, head: Buffer) =>
      this.hub.upgrade(req, socket, head, clientIp(req.socket)),
    );
    this.http.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
      const big = err.code === 'HPE_HEADER_OVERFLOW';
      const why = big ? 'The request headers are too large.' : 'The request is not valid HTTP.';
      endSocket(socket, fail(33333, why, { status: big ? 431 : 400 }));
    });
  }

  serverTime(): number {
    return this.now() + this.clockOffset;
  }

  // ControlTarget

  reset(): void {
    this.hub.reset();
    this.listenKeys.reset();
    this.engine.reset(this.serverTime());
    this.feed.reset();
    this.limiter.reset();
    this.fault = undefined;
    this.clockOffset = 0;
    this.latencyMs = 0;
    this.log = [];
    this.logHead = 0;
  }

  setFault(fault: Fault): void {
    this.fault = fault.count > 0 ? { status: fault.status, remaining: fault.count, path: fault.path } : undefined;
  }

  setClockOffset(ms: number): void {
    this.clockOffset = ms;
    // Listen keys and the WebSocket deadlines run on this clock: what it now passed is closed at once.
    this.hub.clockMoved();
  }

  setLatency(ms: number): void {
    this.latencyMs = ms;
  }

  dropWebSockets(): number {
    return this.hub.dropAll();
  }

  pauseWebSockets(paused: boolean): void {
    this.hub.setPaused(paused);
  }

  sendMalformedFrame(): number {
    return this.hub.sendMalformed();
  }

  webSockets(): WebSocketState {
    return this.hub.state();
  }

  requests(): readonly LogEntry[] {
    return this.logHead === 0 ? this.log : this.log.slice(this.logHead);
  }

  /** Stops latency timers whose answers will never go out, and drops the WebSocket connections. */
  stopTimers(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.hub.close();
  }

  /** The listen keys, on the server clock: POST /_sandbox/clock lapses them as it moves the rest. */
  private userStreams(): UserStreams {
    const keys = (): ListenKeys => this.listenKeys;
    return {
      open: (account) => keys().open(account, this.serverTime()),
      live: (account) => keys().live(account, this.serverTime()),
      wellFormed: (key) => keys().wellFormed(key),
      keepAlive: (account, key) => keys().keepAlive(account, key, this.serverTime()),
      close: (account, key) => {
        if (!keys().close(account, key, this.serverTime())) return false;
        this.hub.closeListenKey(key, 'listenKey closed by DELETE /api/v3/userDataStream');
        return true;
      },
      rules: this.deployment.listenKey,
    };
  }

  private record(entry: LogEntry): void {
    this.log.push(entry);
    if (this.log.length - this.logHead > MAX_LOG_ENTRIES) {
      this.logHead++;
      if (this.logHead >= MAX_LOG_ENTRIES) {
        this.log = this.log.slice(this.logHead);
        this.logHead = 0;
      }
    }
  }

  private onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const control = path === CONTROL_PREFIX || path.startsWith(CONTROL_PREFIX + '/');
    const received = this.serverTime();
    readBody(req, res, (body) => {
      try {
        if (body === undefined) {
          const reply = fail(33333, `The body is larger than ${MAX_BODY_BYTES} bytes.`, { status: 413 });
          if (!control) this.record({ method: req.method ?? '', path, status: 413, code: reply.code, time: received });
          send(res, reply, undefined);
          return;
        }
        if (control) {
          const request = {
            method: req.method ?? '',
            path,
            body,
            remoteAddress: req.socket.remoteAddress,
            host: req.headers.host,
            origin: req.headers.origin,
            contentType: req.headers['content-type'],
          };
          send(res, handleControl(this, request), undefined);
          return;
        }
        const rawQuery = q === -1 ? '' : url.slice(q + 1);
        this.api({ req, method: req.method ?? '', path, rawQuery, body, received }, res);
      } catch (e) {
        // Never let one request take the server down; the answer says what failed.
        if (!res.headersSent)
          send(
            res,
            fail(500, `The sandbox failed on this request: ${e instanceof Error ? e.message : String(e)}`),
            undefined,
          );
      }
    });
  }

  private api(call: ApiCall, res: http.ServerResponse): void {
    const { reply, weight } = this.process(call);
    this.record({ method: call.method, path: call.path, status: reply.status, code: reply.code, time: call.received });
    if (this.latencyMs > 0) {
      const t = setTimeout(() => {
        this.timers.delete(t);
        send(res, reply, weight);
      }, this.latencyMs);
      this.timers.add(t);
    } else send(res, reply, weight);
  }

  private process(call: ApiCall): { reply: Reply; weight: string | undefined } {
    const route = this.routes.find(call.method, call.path);
    if (!route.ok) return { reply: route.error, weight: undefined };
    const endpoint = route.value.endpoint;
    const ip = clientIp(call.req.socket);
    const apiKey = endpoint.signed ? apiKeyOf(call.req.headers[this.keyHeader]) : undefined;
    const weight = this.limits ? this.meter(endpoint, ip, apiKey) : value(undefined);
    if (!weight.ok) return { reply: weight.error, weight: undefined };

    let reply = this.carryOut(call, route.value, ip, apiKey);
    const fault = this.fault;
    if (fault !== undefined && (fault.path === undefined || fault.path === endpoint.path)) {
      if (--fault.remaining <= 0) this.fault = undefined;
      reply = faultReply(fault.status);
    }
    return { reply, weight: weight.value };
  }

  /** §8: counts the request's weight; the weight used so far (the header's value), or the 429/418 answer. */
  private meter(endpoint: Route['endpoint'], ip: string, apiKey: string | undefined): Answer<string> {
    const known = apiKey === undefined ? undefined : KEY_ACCOUNTS.get(apiKey);
    // §8: UID mode counts per account; a signed request without a known key is counted on its IP.
    const counter = endpoint.mode === 'uid' && known !== undefined ? 'uid:' + known.name : 'ip:' + ip;
    // The server's clock, offset included: POST /_sandbox/clock moves windows and bans with it.
    const admission = this.limiter.admit(ip, counter, endpoint.weight, this.serverTime());
    if (admission.kind === 'limited') {
      const rate = rateOf(counter);
      const who = rate.mode === 'uid' ? 'account' : 'IP';
      return refusal(
        429,
        `The ${who} used its ${rate.limit} weight of the last ${rate.intervalMs / 1000} s; wait ${admission.retryAfterS} s (Retry-After). Sending during the wait bans the IP (§8 rules 1-2).`,
        { status: 429, headers: { 'Retry-After': String(admission.retryAfterS) } },
      );
    }
    if (admission.kind === 'banned') {
      return refusal(
        429,
        `The IP ${ip} is banned for ${admission.retryAfterS} s (Retry-After) for sending after a 429; bans grow with repeat offences (§8 rules 2-3).`,
        { status: 418, headers: { 'Retry-After': String(admission.retryAfterS) } },
      );
    }
    return value(String(admission.used));
  }

  private carryOut(call: ApiCall, route: Route, ip: string, apiKey: string | undefined): Reply {
    const { req, method, rawQuery, body, received } = call;
    const params = parseParams(method, rawQuery, body, req.headers['content-type'], route.jsonValued);
    if (!params.ok) return params.error;
    const endpoint = route.endpoint;
    let key: KeyAccount | undefined;
    if (endpoint.signed) {
      const auth = authenticate({
        apiKey,
        keyHeader: this.deployment.apiKeyHeader,
        strayHeader: this.strayHeaders.find((h) => req.headers[h.toLowerCase()] !== undefined),
        ip,
        params: params.value,
        serverTime: received,
        permission: endpoint.permission,
        strictEncoding: route.strictEncoding,
      });
      if (!auth.ok) return auth.error;
      key = auth.value;
    }
    if (params.value.illegal !== undefined) {
      return fail(
        700008,
        `"${params.value.illegal}" holds a character outside letters, digits and . _ - , (percent-decoded).`,
      );
    }
    return route.handler({ params: params.value, key, serverTime: received });
  }
}

function send(res: http.ServerResponse, reply: Reply, weight: string | undefined): void {
  if (res.destroyed) return;
  const headers: http.OutgoingHttpHeaders = {
    'Content-Type': JSON_CONTENT_TYPE,
    'Content-Length': Buffer.byteLength(reply.body),
  };
  if (weight !== undefined) headers[USED_WEIGHT_HEADER] = weight;
  if (reply.headers !== undefined) Object.assign(headers, reply.headers);
  res.writeHead(reply.status, headers);
  res.end(reply.body);
}

/** The body as text, or undefined when it is above MAX_BODY_BYTES (drained, or the socket dropped). */
function readBody(req: http.IncomingMessage, res: http.ServerResponse, done: (body: string | undefined) => void): void {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_DRAIN_BYTES) {
    res.setHeader('Connection', 'close');
    done(undefined);
    return;
  }
  let first: Buffer | undefined;
  let more: Buffer[] | undefined;
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_DRAIN_BYTES) {
      req.socket.destroy();
      return;
    }
    if (size > MAX_BODY_BYTES) {
      first = undefined;
      more = undefined;
      return;
    }
    if (first === undefined) first = chunk;
    else (more ??= [first]).push(chunk);
  });
  req.on('end', () => {
    if (size > MAX_BODY_BYTES) done(undefined);
    else if (more !== undefined) done(Buffer.concat(more).toString('utf8'));
    else done(first === undefined ? '' : first.toString('utf8'));
  });
  req.on('error', () => undefined);
}
